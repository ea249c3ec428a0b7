export { apiKeyRotationWorkflow } from './api-key-rotation';
