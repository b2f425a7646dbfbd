/**
 * The per-user storage quota (docs/product.md#limits-and-constants): what a user stores
 * (uploads, merged datasets, PDFs) is counted, an upload that would pass
 * `USER_STORAGE_QUOTA_MB` is refused with a 413 naming the quota and the usage before any of
 * its files is stored, and the admin sees each user's stored bytes.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect } from 'vitest';
import { ZAdminUser, ZErrorBody } from '@aso/contracts';
import type { TDb } from '@aso/db';
import { createTestUser, type TTestUser } from '@aso/testkit';
import { it } from '@aso/testkit/vitest';
import type { FastifyInstance } from 'fastify';
import { admin } from './access.fixtures';
import { SAMPLES, sampleParts, startAnalyticsEnv, upload, uploadSample } from './analytics.helpers';

const MB = 1024 * 1024;

/** The user's stored bytes as the admin's Users list gives them. */
async function storedBytes(api: FastifyInstance, user: TTestUser): Promise<number> {
  const res = await api.inject({ method: 'GET', url: '/api/admin/users', headers: admin() });
  expect(res.statusCode, res.body).toBe(200);
  const listed = ZAdminUser.array()
    .parse(res.json())
    .find((u) => u.id === user.userId);
  if (!listed) throw new Error(`${user.email} is not in the first page of users`);
  return listed.storageBytes;
}

/** Stores a PDF of `bytes` bytes for `user` (as the render worker stores one). */
async function storePdf(db: TDb, user: TTestUser, bytes: number): Promise<void> {
  await db
    .insertInto('documents')
    .values({
      user_id: user.userId,
      kind: 'audit',
      subject_id: crypto.randomUUID(),
      version: 'v1',
      file_name: 'report.pdf',
      // Random bytes: PostgreSQL keeps them at their size (nothing to compress).
      pdf: randomBytes(bytes),
      pages: 1,
    })
    .execute();
}

/** How many uploads and datasets `user` has stored. */
async function stored(db: TDb, user: TTestUser): Promise<{ uploads: number; datasets: number }> {
  const count = async (table: 'uploads' | 'datasets') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('user_id', '=', user.userId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  return { uploads: await count('uploads'), datasets: await count('datasets') };
}

describe('per-user storage quota', () => {
  it('counts uploads, datasets and PDFs, and refuses an upload past the quota before storing it', async ({
    database,
    redis,
  }) => {
    const env = await startAnalyticsEnv(database, redis, { api: { USER_STORAGE_QUOTA_MB: '1' } });
    try {
      const api = env.app;
      const user = await createTestUser(database.db);
      const other = await createTestUser(database.db);
      const [habits, calm] = [SAMPLES[0], SAMPLES[1]];
      const fileBytes = sampleParts(habits).reduce((n, p) => n + p.content.length, 0);

      expect(await storedBytes(api, user)).toBe(0);
      await uploadSample(api, user, habits);
      // The two exports and the dataset merged from them.
      const afterOne = await storedBytes(api, user);
      expect(afterOne).toBeGreaterThan(fileBytes);
      expect(afterOne).toBeLessThan(MB);

      // A PDF fills the quota up to 1 KB: the next pair (3.7 KB and 1.2 KB) would pass it.
      await storePdf(database.db, user, MB - afterOne - 1024);
      expect(await storedBytes(api, user)).toBe(MB - 1024);
      const before = await stored(database.db, user);
      const refused = await upload(api, user, sampleParts(calm));
      expect(refused.statusCode, refused.body).toBe(413);
      expect(ZErrorBody.parse(refused.json()).message).toMatch(
        /^Storage quota reached: your uploads, datasets and PDFs take 1023\.00 KB of your 1\.00 MB \(USER_STORAGE_QUOTA_MB\), and this upload adds 3\.67 KB; stored exports expire with their datasets, the next on \d{4}-\d{2}-\d{2}$/,
      );
      // Nothing of it was stored, and the usage is what it was.
      expect(await stored(database.db, user)).toEqual(before);
      expect(await storedBytes(api, user)).toBe(MB - 1024);

      // At the quota, an upload is refused before its body is read.
      await storePdf(database.db, user, 2048);
      const full = await upload(api, user, sampleParts(calm));
      expect(full.statusCode).toBe(413);
      expect(ZErrorBody.parse(full.json()).message).toMatch(
        /^Storage quota reached: your uploads, datasets and PDFs take 1\.00 MB of your 1\.00 MB \(USER_STORAGE_QUOTA_MB\); stored/,
      );
      expect(await stored(database.db, user)).toEqual(before);

      // Another user's quota is their own.
      await uploadSample(api, other, calm);

      // Room made (the PDFs gone), the upload is taken.
      await database.db.deleteFrom('documents').where('user_id', '=', user.userId).execute();
      await uploadSample(api, user, calm);
      const after = await stored(database.db, user);
      expect(after.datasets).toBe(before.datasets + 1);
      expect(await storedBytes(api, user)).toBeGreaterThan(afterOne);
    } finally {
      await env.close();
    }
  });
});
