import { describe, expect, it } from 'vitest';
import {
  formatEventId,
  parseEventId,
  ProgressAggregator,
  type TClientMessage,
} from './progress.aggregator';
import { appStep as app, at, step } from '../../test/bus-event.builders';

const brief = (m: TClientMessage) =>
  m.event === 'step'
    ? `${m.data.step_id}:${m.data.status}:${m.data.progress_pct}:${m.data.message}`
    : m.event;

describe('ProgressAggregator', () => {
  it("aggregates a step over the audit's apps", () => {
    const agg = new ProgressAggregator(['1', '2', '3', '4']);
    const out = [
      app('1', 'scrape', 'in_progress', 1),
      app('1', 'scrape', 'done', 2),
      app('2', 'scrape', 'done', 3),
      app('3', 'scrape', 'done', 4),
      app('4', 'scrape', 'done', 5),
    ].flatMap((e) => agg.apply(e));
    expect(out.map(brief)).toEqual([
      'scrape:in_progress:0:Scraped 0 of 4 apps',
      'scrape:in_progress:25:Scraped 1 of 4 apps',
      'scrape:in_progress:50:Scraped 2 of 4 apps',
      'scrape:in_progress:75:Scraped 3 of 4 apps',
      'scrape:done:100:Scraped 4 of 4 apps',
    ]);
    const last = out.at(-1)!;
    expect(last.event === 'step' && [last.data.started_at, last.data.ended_at]).toEqual([
      at(1),
      at(5),
    ]);
  });

  it('counts cache hits from the flag alone, whatever the message says', () => {
    const agg = new ProgressAggregator(['1', '2', '3']);
    agg.apply(app('1', 'cache_check', 'done', 1, { message: 'whatever', cacheHit: true }));
    agg.apply(
      app('2', 'cache_check', 'done', 2, { message: 'Cache hit: snapshot from yesterday' }),
    );
    const out = agg.apply(
      app('3', 'cache_check', 'done', 3, { message: 'Cache hit (text only)', cacheHit: false }),
    );
    expect(out.map(brief)).toEqual([
      'cache_check:done:100:Checked the cache for 3 of 3 apps: 1 cache hit',
    ]);
    const miss = new ProgressAggregator(['1']);
    expect(
      miss
        .apply(
          app('1', 'cache_check', 'done', 1, {
            message: 'No fresh snapshot; scraping',
            cacheHit: false,
          }),
        )
        .map(brief),
    ).toEqual(['cache_check:done:100:Checked the cache for 1 of 1 app']);
  });

  it("shows an app's error with its message, and a retry replaces it; done stays done", () => {
    const agg = new ProgressAggregator(['1']);
    expect(
      agg
        .apply(app('1', 'scrape', 'error', 1, { message: 'The App Store answered HTTP 503' }))
        .map(brief),
    ).toEqual(['scrape:error:0:The App Store answered HTTP 503']);
    expect(agg.apply(app('1', 'scrape', 'done', 2)).map(brief)).toEqual([
      'scrape:done:100:Scraped 1 of 1 app',
    ]);
    expect(agg.apply(app('1', 'scrape', 'in_progress', 3))).toEqual([]);
  });

  it('the first analysis step closes scrape steps still open; retried analysis steps are not repeated', () => {
    const agg = new ProgressAggregator(['1']);
    agg.apply(app('1', 'url_validation', 'done', 1));
    const out = agg.apply(step('ai_screenshot_analysis', 'in_progress', 5));
    expect(out.map(brief)).toEqual([
      'cache_check:done:100:Checked the cache for 1 of 1 app',
      'scrape:done:100:Scraped 1 of 1 app',
      'metadata_extraction:done:100:Extracted metadata of 1 of 1 app',
      'screenshot_analysis:done:100:Processed screenshots of 1 of 1 app',
      'preview_video_detection:done:100:Checked preview videos of 1 of 1 app',
      'in_app_events:done:100:Found in-app events of 1 of 1 app',
      'ai_screenshot_analysis:in_progress:0:ai_screenshot_analysis in_progress',
    ]);
    expect(agg.apply(step('ai_screenshot_analysis', 'in_progress', 6))).toEqual([]);
    expect(agg.apply(step('ai_screenshot_analysis', 'done', 7)).map(brief)).toEqual([
      'ai_screenshot_analysis:done:100:ai_screenshot_analysis done',
    ]);
    expect(agg.apply(step('ai_screenshot_analysis', 'in_progress', 8))).toEqual([]);
    expect(agg.apply(step('ai_screenshot_analysis', 'done', 9))).toEqual([]);
  });

  it('ends at the first terminal event', () => {
    const agg = new ProgressAggregator(['1']);
    expect(
      agg.apply({
        type: 'error',
        message: 'App not found in the US App Store',
        code: 'ANALYSIS_FAILED',
        emittedAt: 1,
      }),
    ).toEqual([
      {
        event: 'error',
        data: { message: 'App not found in the US App Store', code: 'ANALYSIS_FAILED' },
      },
    ]);
    expect(agg.finished).toBe(true);
    expect(agg.apply({ type: 'complete', auditId: 'x', emittedAt: 2 })).toEqual([]);
  });

  it('replaying the same events gives the same messages (resumption relies on it)', () => {
    const events = [
      app('1', 'url_validation', 'in_progress', 1),
      app('2', 'url_validation', 'done', 2),
      step('ai_recommendations', 'done', 3),
    ];
    const run = () => {
      const agg = new ProgressAggregator(['1', '2']);
      return events.flatMap((e) => agg.apply(e));
    };
    expect(run()).toEqual(run());
  });
});

describe('event ids', () => {
  it('formats and parses entry ids with a message index', () => {
    expect(formatEventId('1700000000000-0', 0)).toBe('1700000000000-0');
    expect(formatEventId('1700000000000-0', 2)).toBe('1700000000000-0.2');
    expect(parseEventId('1700000000000-0.2')).toEqual({ entryId: '1700000000000-0', index: 2 });
    expect(parseEventId('1700000000000-3')).toEqual({ entryId: '1700000000000-3', index: 0 });
    expect(parseEventId('garbage')).toBeNull();
    expect(parseEventId(undefined)).toBeNull();
  });
});
