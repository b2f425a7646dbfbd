import { describe, expect, it } from 'vitest';
import { jobBindings, jobLogger, type TJobRef } from './job-logger';

const job = (data: unknown, over: Partial<TJobRef> = {}): TJobRef => ({
  id: 'a1:scrape:324684580',
  name: 'scrape',
  queueName: 'scrape',
  attemptsStarted: 1,
  data,
  ...over,
});

describe('jobBindings', () => {
  it('binds the queue, job id, job name, attempt and the audit the job belongs to', () => {
    expect(
      jobBindings(
        job(
          {
            auditId: 'a1',
            appId: '324684580',
            role: 'main',
            storefront: 'us',
            appStoreUrl: 'https://x',
          },
          { attemptsStarted: 2 },
        ),
      ),
    ).toEqual({
      queue: 'scrape',
      jobId: 'a1:scrape:324684580',
      jobName: 'scrape',
      attempt: 2,
      auditId: 'a1',
      appId: '324684580',
      role: 'main',
    });
  });

  it("binds a merge job's upload ids and never other payload fields", () => {
    const b = jobBindings(
      job(
        { userId: 'u1', conversionUploadId: 'c1', redownloadsUploadId: null, secret: 'x' },
        { name: 'merge', queueName: 'csv-merge' },
      ),
    );
    expect(b).toEqual({
      queue: 'csv-merge',
      jobId: 'a1:scrape:324684580',
      jobName: 'merge',
      attempt: 1,
      conversionUploadId: 'c1',
    });
    expect(JSON.stringify(b)).not.toContain('u1');
  });

  it('copes with payloads that are not objects and cuts overlong values', () => {
    expect(jobBindings(job(null))).toEqual({
      queue: 'scrape',
      jobId: 'a1:scrape:324684580',
      jobName: 'scrape',
      attempt: 1,
    });
    expect((jobBindings(job({ auditId: 'x'.repeat(500) })).auditId as string).length).toBe(128);
  });
});

describe('jobLogger', () => {
  it("returns the logger's child bound to the job", () => {
    const seen: Record<string, unknown>[] = [];
    const log = { child: (b: Record<string, unknown>) => (seen.push(b), 'child') };
    expect(jobLogger(log, job({ auditId: 'a1' }))).toBe('child');
    expect(seen).toEqual([
      {
        queue: 'scrape',
        jobId: 'a1:scrape:324684580',
        jobName: 'scrape',
        attempt: 1,
        auditId: 'a1',
      },
    ]);
  });
});
