import { describe, expect, it } from 'vitest';
import { compareEntryIds, parseAnnouncement } from './progress-bus';

describe('compareEntryIds', () => {
  it('orders by milliseconds, then by sequence, numerically rather than as text', () => {
    expect(compareEntryIds('1700000000000-0', '1700000000001-0')).toBe(-1);
    expect(compareEntryIds('1700000000001-0', '1700000000000-9')).toBe(1);
    expect(compareEntryIds('1700000000000-2', '1700000000000-10')).toBe(-1);
    expect(compareEntryIds('999-5', '1000-0')).toBe(-1);
    expect(compareEntryIds('1700000000000-7', '1700000000000-7')).toBe(0);
  });

  it('is exact beyond 2^53 (both parts of a stream id are 64-bit)', () => {
    // 2^64 - 1 and 2^64 - 2 are the same IEEE double.
    expect(compareEntryIds('0-18446744073709551614', '0-18446744073709551615')).toBe(-1);
    expect(compareEntryIds('18446744073709551615-0', '18446744073709551614-3')).toBe(1);
  });

  it('reads a missing or empty part as 0 and ignores leading zeros', () => {
    expect(compareEntryIds('5', '5-0')).toBe(0);
    expect(compareEntryIds('05-007', '5-7')).toBe(0);
    expect(compareEntryIds('0-0', '')).toBe(0);
    expect(compareEntryIds('5-', '5-1')).toBe(-1);
    expect(compareEntryIds('0010-0', '9-99')).toBe(1);
  });

  it('sorts a shuffled list of ids into stream order', () => {
    const ids = ['1-0', '1-1', '1-10', '2-0', '10-0', '10-2', '100-0'];
    const shuffled = [ids[4], ids[0], ids[6], ids[2], ids[5], ids[1], ids[3]] as string[];
    expect(shuffled.sort(compareEntryIds)).toEqual(ids);
  });
});

describe('parseAnnouncement', () => {
  const event = {
    type: 'complete',
    auditId: 'a1',
    emittedAt: 1_700_000_000_000,
  } as const;

  it('reads the audit, the previous entry id and the entry (its JSON may hold spaces)', () => {
    const json = JSON.stringify({ ...event, note: undefined });
    expect(parseAnnouncement(`a1 1-0 2-0 ${json}`)).toEqual({
      auditId: 'a1',
      entry: { previousId: '1-0', entry: { id: '2-0', event } },
    });
    const step = {
      type: 'step',
      emittedAt: 1,
      step: {
        step_id: 'finalize',
        status: 'in_progress',
        message: 'Writing the report now',
        progress_pct: 50,
        started_at: null,
        ended_at: null,
      },
    };
    expect(parseAnnouncement(`a2 0-0 5-1 ${JSON.stringify(step)}`)?.entry?.entry.event).toEqual(
      step,
    );
  });

  it('stops at the audit id when the audit is not wanted', () => {
    const json = JSON.stringify(event);
    expect(parseAnnouncement(`a1 1-0 2-0 ${json}`, (id) => id === 'a2')).toBeNull();
    expect(parseAnnouncement('a1', (id) => id === 'a2')).toBeNull();
    expect(parseAnnouncement(`a2 1-0 2-0 ${json}`, (id) => id === 'a2')?.entry?.entry.id).toBe(
      '2-0',
    );
  });

  it('takes a bare audit id, or anything that does not parse, as a wake-up without an entry', () => {
    expect(parseAnnouncement('a1')).toEqual({ auditId: 'a1', entry: null });
    expect(parseAnnouncement('a1 1-0')).toEqual({ auditId: 'a1', entry: null });
    expect(parseAnnouncement('a1 1-0 2-0')).toEqual({ auditId: 'a1', entry: null });
    expect(parseAnnouncement('a1 1-0 2-0 {not json')).toEqual({ auditId: 'a1', entry: null });
    expect(parseAnnouncement('a1 1-0 2-0 {"type":"unknown"}')).toEqual({
      auditId: 'a1',
      entry: null,
    });
  });
});
