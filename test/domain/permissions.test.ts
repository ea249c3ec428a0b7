import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AnyProcedure } from '@trpc/server';
import { appRouter } from '../../api/router';
import type { Meta } from '../../api/trpc';
import { PERMISSIONS } from '../../domain/permissions';

describe('the published permission list', () => {
  it('covers the permission of every procedure', () => {
    const procedures = Object.values(appRouter._def.procedures as unknown as Record<string, AnyProcedure>);
    expect(procedures.length).toBeGreaterThan(0);
    for (const procedure of procedures) {
      expect(PERMISSIONS).toContain((procedure._def.meta as Meta).permission);
    }
  });

  it('is exactly what docs/permissions.md publishes', () => {
    const doc = readFileSync(join(__dirname, '../../docs/permissions.md'), 'utf8');
    const published = [...doc.matchAll(/^\| `([a-z-]+:[a-z-]+)` \|/gm)].map((m) => m[1]);
    expect(published).toEqual([...PERMISSIONS]);
  });
});
