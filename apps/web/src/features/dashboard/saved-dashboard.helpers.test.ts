import { describe, expect, it } from 'vitest';
import { fileNameFromDisposition } from '../../lib/file-download.helpers';
import {
  ZSavedDashboardList,
  dashboardConfig,
  isAscDashboard,
  isExpiredError,
} from './saved-dashboard.helpers';

const saved = (configJson: unknown) => ({
  id: 'd1',
  name: 'Calm Notes - United Kingdom - 21-11-2026',
  appName: 'Calm Notes',
  territory: 'United Kingdom',
  configJson,
  createdAt: '2026-11-21T09:00:00.000Z',
});

describe('ZSavedDashboardList', () => {
  it('keeps rows whose config is incomplete, so that opening them can say so', () => {
    const list = ZSavedDashboardList.parse([
      saved({}),
      saved({ downloadId: 'x', headers: [], totalRows: 3, createdFrom: 'csv_upload' }),
    ]);
    expect(list).toHaveLength(2);
    expect(list[0]!.configJson).toEqual({});
  });

  it('refuses a non-array and an item without id', () => {
    expect(() => ZSavedDashboardList.parse({ dashboards: [] })).toThrow(
      'expected a JSON array of dashboards',
    );
    expect(() => ZSavedDashboardList.parse([{ name: 'x' }])).toThrow('dashboard 0 has no id');
  });
});

describe('dashboardConfig', () => {
  it('gives the config when it names a dataset', () => {
    const config = {
      downloadId: 'dl-1',
      headers: ['Date', 'Total Downloads'],
      totalRows: 30,
      createdFrom: 'csv_upload',
    };
    expect(dashboardConfig(saved(config))).toEqual(config);
  });

  it('is null without a downloadId (Dashboard data is incomplete)', () => {
    expect(dashboardConfig(saved({}))).toBeNull();
    expect(dashboardConfig(saved(null))).toBeNull();
    expect(dashboardConfig(saved({ downloadId: '' }))).toBeNull();
  });

  it('still opens a config with a downloadId but odd other fields', () => {
    expect(
      dashboardConfig(saved({ downloadId: 'dl-2', headers: ['Date', 3], totalRows: 'many' })),
    ).toEqual({
      downloadId: 'dl-2',
      headers: ['Date'],
      totalRows: 0,
      createdFrom: 'csv_upload',
    });
  });
  it('reads a dashboard on imported App Store Connect figures, and refuses an incomplete one', () => {
    const config = {
      createdFrom: 'app_store_connect',
      connectionId: '0b6f2c1e-5d4a-4f7b-9c3e-2a1b0c9d8e7f',
      appId: '6450000001',
      territory: 'GB',
      device: null,
      dateRange: { start: '2026-05-01', end: '2026-05-30' },
    };
    expect(dashboardConfig(saved(config))).toEqual(config);
    expect(isAscDashboard(saved(config))).toBe(true);
    expect(isAscDashboard(saved({ downloadId: 'x' }))).toBe(false);
    // No app id, or a connection id that is not one: Dashboard data is incomplete.
    expect(dashboardConfig(saved({ ...config, appId: undefined }))).toBeNull();
    expect(dashboardConfig(saved({ ...config, connectionId: 'x' }))).toBeNull();
  });
});

describe('isExpiredError', () => {
  it('is true when the error text contains 404 (docs/product.md#error-catalogue)', () => {
    expect(isExpiredError(new Error('404: {"message":"Dataset not found or expired"}'))).toBe(true);
    expect(isExpiredError(new Error('500: Internal Server Error'))).toBe(false);
    expect(isExpiredError('404')).toBe(false);
  });
});

describe('fileNameFromDisposition', () => {
  it('reads filename* first, then filename', () => {
    expect(
      fileNameFromDisposition(
        `attachment; filename="calm.csv"; filename*=UTF-8''Calm%20Notes-merged.csv`,
      ),
    ).toBe('Calm Notes-merged.csv');
    expect(fileNameFromDisposition('attachment; filename="calm-notes-merged.csv"')).toBe(
      'calm-notes-merged.csv',
    );
    expect(fileNameFromDisposition(null)).toBeNull();
    expect(fileNameFromDisposition('attachment')).toBeNull();
  });
});
