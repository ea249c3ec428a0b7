import { Prisma } from '../../generated/prisma/client';
import { retryOnWriteConflict } from '../../prisma/write-conflict-retry';

const conflict = () => new Prisma.PrismaClientKnownRequestError('Transaction failed due to a write conflict or a deadlock', { code: 'P2034', clientVersion: 'test' });

describe('retryOnWriteConflict', () => {
  it('runs the transaction again after a deadlock or serialization failure and returns its result', async () => {
    let runs = 0;
    const result = await retryOnWriteConflict(async () => {
      runs++;
      if (runs < 3) throw conflict();
      return 'saved';
    });
    expect({ result, runs }).toEqual({ result: 'saved', runs: 3 });
  });

  it('gives up after the last attempt with the conflict itself', async () => {
    let runs = 0;
    await expect(retryOnWriteConflict(async () => { runs++; throw conflict(); }, 2)).rejects.toMatchObject({ code: 'P2034' });
    expect(runs).toBe(2);
  });

  it('does not repeat a transaction that failed for any other reason', async () => {
    let runs = 0;
    const unique = new Prisma.PrismaClientKnownRequestError('Unique constraint failed', { code: 'P2002', clientVersion: 'test' });
    await expect(retryOnWriteConflict(async () => { runs++; throw unique; })).rejects.toBe(unique);
    expect(runs).toBe(1);
  });
});
