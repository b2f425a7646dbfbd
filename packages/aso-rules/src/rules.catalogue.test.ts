import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SECTION_KEYS, ZRulesCatalogue } from '@aso/contracts';
import { analyzeListing } from './audit.analyzer';
import { RULES, RULES_VERSION, rulesCatalogue, sectionRules } from './rules.catalogue';
import { scoreOf } from './audit.scoring';
import { constructedListing, shots } from './test-listing.helpers';

// sha256 of every rule's `id@version:maxPoints`, in catalogue order, for RULES_VERSION 2.0.0.
// A changed rule without a new RULES_VERSION (and a new fingerprint here) fails this test.
const FINGERPRINT_2_0_0 = 'a141c373d2240cbd94b652c94f3fdbeff8295a627dcb8d60aee3fcf0a21b3044';

const fingerprint = () =>
  createHash('sha256')
    .update(RULES.map((r) => `${r.id}@${r.version}:${r.maxPoints}`).join('\n'))
    .digest('hex');

describe('the rules catalogue', () => {
  it('is complete: every rule has a unique id of its section, a version, a severity and a source', () => {
    expect(() => ZRulesCatalogue.parse(rulesCatalogue())).not.toThrow();
    expect(new Set(RULES.map((r) => r.id)).size).toBe(RULES.length);
    for (const r of RULES) {
      expect(r.id.startsWith(`${r.section}.`)).toBe(true);
      expect(r.version).toBeGreaterThanOrEqual(1);
      expect(r.facts.length).toBeGreaterThan(0);
      expect(r.title).toMatch(/\.$/);
      if (r.source.kind === 'apple')
        expect(r.source.url).toMatch(/^https:\/\/developer\.apple\.com\//);
      else expect(r.source.url).toBeNull();
      if (r.source.kind === 'industry') expect(r.source.label).toMatch(/^Industry practice: /);
      if (r.source.kind === 'product') expect(r.source.label).toMatch(/^This product's rule: \S/);
    }
    for (const key of SECTION_KEYS) expect(sectionRules(key).length).toBeGreaterThan(0);
  });

  it(`records its version: ${RULES_VERSION}`, () => {
    expect(fingerprint()).toBe(FINGERPRINT_2_0_0);
  });

  it('every section reports each of its rules exactly once, and its score is 100 minus the failed points', () => {
    const listings = [
      constructedListing(),
      constructedListing({
        appName: 'Tune Box: Music Player',
        subtitle: 'Offline songs and playlists',
        description: 'Tune Box plays music offline. '.repeat(40),
        screenshots: { iphone: { deviceType: 'iphone_d74', screenshots: shots(4) } },
        versionHistory: [{ version: '1.0', releaseDate: '2025-01-01', releaseNotes: 'Bug fixes.' }],
        fileSizeBytes: 250_000_000,
        supportedDevices: ['iphone'],
        languages: ['English'],
      }),
      constructedListing({ unknownFields: ['subtitle', 'previews', 'inAppEvents', 'rating'] }),
    ];
    for (const main of listings) {
      for (const keywords of ['', 'music,radio']) {
        const a = analyzeListing({ main, competitors: [], keywords });
        expect(a.rulesVersion).toBe(RULES_VERSION);
        for (const key of SECTION_KEYS) {
          const s = a.structuredAnalysis[key];
          expect(s.rules.map((o) => o.id)).toEqual(sectionRules(key).map((r) => r.id));
          for (const o of s.rules) {
            const def = RULES.find((r) => r.id === o.id)!;
            expect([o.version, o.severity]).toEqual([def.version, def.severity]);
            expect(o.points).toBeLessThanOrEqual(def.maxPoints);
            if (o.status !== 'failed') expect(o.points).toBe(0);
          }
          // Scored only on rules that were measured (passed or failed); the icon's presence
          // alone earns no score.
          const measured = s.rules.some((o) => o.status === 'passed' || o.status === 'failed');
          const iconShown = key === 'icon' && s.rules.every((o) => o.status !== 'failed');
          if (!measured || iconShown) expect(s.score).toBeNull();
          else expect(s.score).toBe(scoreOf(s.rules));
        }
      }
    }
  });
});
