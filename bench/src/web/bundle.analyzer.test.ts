import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { analyzeBundle, htmlAssets, moduleImports, resolveAsset } from './bundle.analyzer';

// A constructed miniature of a Vite build: an entry that imports a shared chunk statically and
// the dashboard lazily; the dashboard imports the shared chunk and a chart library chunk.
const files: Record<string, string> = {
  'assets/index-a1.js':
    'import{s}from"./shared-b2.js";const d=()=>import("./dashboard-c3.js");console.log(s,d);',
  'assets/shared-b2.js': 'export const s=1;',
  'assets/dashboard-c3.js':
    'import{s}from"./shared-b2.js";import{chart}from"./charts-d4.js";export default chart(s);',
  'assets/charts-d4.js': 'export const chart=(x)=>{const n={};n._echarts_instance_=x;return n};',
  'assets/admin-e5.js': 'export default 1;',
};
const html = `<!doctype html><html><head>
<script type="module" crossorigin src="/assets/index-a1.js"></script>
<link rel="modulepreload" crossorigin href="/assets/shared-b2.js">
<link rel="stylesheet" crossorigin href="/assets/index-f6.css">
</head><body><div id="root"></div></body></html>`;
const bytes = (f: string) => Buffer.from(f.endsWith('.css') ? 'body{margin:0}' : files[f]!, 'utf8');

describe('htmlAssets', () => {
  it('lists module scripts, modulepreloads and stylesheets', () => {
    expect(htmlAssets(html)).toEqual({
      scripts: ['/assets/index-a1.js'],
      modulepreloads: ['/assets/shared-b2.js'],
      stylesheets: ['/assets/index-f6.css'],
    });
  });
});

describe('moduleImports and resolveAsset', () => {
  it('separates static and dynamic imports', async () => {
    expect(await moduleImports(files['assets/index-a1.js']!)).toEqual({
      static: ['./shared-b2.js'],
      dynamic: ['./dashboard-c3.js'],
    });
  });

  it('resolves relative and root paths against the importer, and skips bare or absolute URLs', () => {
    expect(resolveAsset('assets/a.js', './b.js')).toBe('assets/b.js');
    expect(resolveAsset('assets/x/a.js', '../b.js')).toBe('assets/b.js');
    expect(resolveAsset('index.html', '/assets/c.js')).toBe('assets/c.js');
    expect(resolveAsset('assets/a.js', 'react')).toBeNull();
    expect(resolveAsset('assets/a.js', 'https://cdn.example/x.js')).toBeNull();
  });
});

describe('analyzeBundle', () => {
  it('counts the first load without lazy chunks and finds the chart chunk behind the dashboard', async () => {
    const report = await analyzeBundle(html, Object.keys(files), bytes);
    expect(report.firstLoadJs.files).toEqual(['assets/index-a1.js', 'assets/shared-b2.js']);
    expect(report.firstLoadJs.rawBytes).toBe(
      files['assets/index-a1.js']!.length + files['assets/shared-b2.js']!.length,
    );
    expect(report.firstLoadJs.gzipBytes).toBe(
      gzipSync(bytes('assets/index-a1.js')).length + gzipSync(bytes('assets/shared-b2.js')).length,
    );
    expect(report.firstLoadCss.files).toEqual(['assets/index-f6.css']);
    expect(report.dashboardChunk).toBe('assets/dashboard-c3.js');
    expect(report.dashboard?.files).toEqual(['assets/charts-d4.js', 'assets/dashboard-c3.js']);
    expect(report.echartsInFirstLoad).toEqual([]);
    expect(report.allJs.files).toHaveLength(5);
  });

  it('takes the chunk named as the dashboard before another lazy chunk that brings ECharts', async () => {
    const twoCharts: Record<string, string> = {
      ...files,
      'assets/index-a1.js':
        'const t=()=>import("./admin-e5.js");const d=()=>import("./dashboard-c3.js");console.log(t,d);',
      'assets/admin-e5.js': 'import{chart}from"./charts-d4.js";export default chart(2);',
    };
    const report = await analyzeBundle(
      html,
      Object.keys(twoCharts),
      (f) => Buffer.from(f.endsWith('.css') ? '' : twoCharts[f]!, 'utf8'),
      /dashboard-/,
    );
    expect(report.dashboardChunk).toBe('assets/dashboard-c3.js');
  });

  it('reports ECharts in the first load when the entry imports it statically', async () => {
    const eager: Record<string, string> = {
      ...files,
      'assets/index-a1.js': 'import{chart}from"./charts-d4.js";chart(1);',
    };
    const report = await analyzeBundle(html, Object.keys(eager), (f) =>
      Buffer.from(f.endsWith('.css') ? '' : eager[f]!, 'utf8'),
    );
    expect(report.echartsInFirstLoad).toEqual(['assets/charts-d4.js']);
    expect(report.dashboard).toBeNull();
  });
});
