import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TUploadResult } from '@aso/contracts';
import { Toaster } from '@/components/ui/toaster';
import { startApiStandIn, type TApiStandIn } from '@/test/api-stand-in';
import { isRefused } from '@/test/dom';
import { UPLOAD_TEXTS, UploadPanel } from './upload-panel';

let api: TApiStandIn;
beforeAll(async () => {
  api = await startApiStandIn();
});
afterAll(() => api.close());

/** The multipart parts of the last upload, as `field=file name`. */
const lastParts = () =>
  [...(api.received.at(-1)?.body ?? '').matchAll(/name="(\w+)"; filename="([^"]+)"/g)]
    .map((m) => `${m[1]}=${m[2]}`)
    .join(',');

const csv = (name: string) =>
  new File(['"Date","Impressions"\n"7/20/25","12"\n'], name, { type: 'text/csv' });

const MERGED: TUploadResult = {
  mergedData: {
    headers: ['Date', 'Impressions', 'Territory'],
    preview: [],
    totalRows: 1234,
    downloadId: 'ds-1',
    appName: 'Calm Notes',
    territory: 'United Kingdom',
    swapped: false,
    notices: [],
  },
};

describe('UploadPanel (docs/product.md#upload-widgets, #states-and-transitions and #error-catalogue)', () => {
  it('uploads the chosen exports and says they were merged', async () => {
    const user = userEvent.setup();
    render(
      <>
        <UploadPanel canCancel={false} />
        <Toaster />
      </>,
    );
    const start = screen.getByRole('button', { name: 'upload CSV files' });
    expect(isRefused(start)).toBe(true);
    await user.upload(
      screen.getByLabelText('Choose the conversion data CSV file'),
      csv('conv.csv'),
    );
    await user.upload(
      screen.getByLabelText('Choose the redownloads data CSV file'),
      csv('redl.csv'),
    );
    expect(isRefused(start)).toBe(false);

    api.answer(200, MERGED);
    await user.click(start);
    expect(await screen.findByText(UPLOAD_TEXTS.mergedTitle)).toBeTruthy();
    expect(screen.getByText('Total rows: 1,234')).toBeTruthy();
    expect(api.received.at(-1)?.url).toBe('/api/uploads');
    expect(lastParts()).toBe('conversionCSV=conv.csv,redownloadsCSV=redl.csv');
  });

  it("shows the server's message when the upload is refused, and keeps the files", async () => {
    const user = userEvent.setup();
    render(
      <>
        <UploadPanel canCancel />
        <Toaster />
      </>,
    );
    await user.upload(
      screen.getByLabelText('Choose the conversion data CSV file'),
      csv('conv.csv'),
    );
    api.answer(400, {
      message: 'conversionCSV: not an App Store Connect export',
      code: 'BAD_REQUEST',
    });
    await user.click(screen.getByRole('button', { name: 'upload CSV files' }));
    expect(await screen.findByText(UPLOAD_TEXTS.failedTitle)).toBeTruthy();
    expect(screen.getByText('conversionCSV: not an App Store Connect export')).toBeTruthy();
    await waitFor(() =>
      expect(isRefused(screen.getByRole('button', { name: 'upload CSV files' }))).toBe(false),
    );
    expect(screen.getByRole('button', { name: 'back to dashboard' })).toBeTruthy();
  });
});
