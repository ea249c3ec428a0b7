export { requestHash } from '../../domain/request-hash';
