import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Window as HappyWindow } from 'happy-dom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TUploadResult } from '@aso/contracts';
import { Toaster } from '@/components/ui/toaster';
import { isRefused } from '@/test/dom';
import { UPLOAD_TEXTS, UploadPanel } from './upload-panel';

/**
 * A local stand-in of the gateway's `POST /api/uploads` (spec section 7), served over real
 * HTTP on the page's own origin: it records the multipart parts it got and answers the next
 * queued answer.
 */
let server: Server;
let answer: { status: number; body: unknown } = { status: 500, body: '' };
const received: string[] = [];

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

beforeAll(async () => {
  server = createServer((req, res) => {
    void readBody(req).then((body) => {
      received.push(
        `${req.method} ${req.url} ${[...body.matchAll(/name="(\w+)"; filename="([^"]+)"/g)].map((m) => `${m[1]}=${m[2]}`).join(',')}`,
      );
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  // The page's origin becomes the server's, so the panel's relative `/api/uploads` reaches it.
  (window as unknown as HappyWindow).happyDOM.setURL(`http://127.0.0.1:${port}/`);
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

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

describe('UploadPanel (spec sections 2, 4 and 8)', () => {
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

    answer = { status: 200, body: MERGED };
    await user.click(start);
    expect(await screen.findByText(UPLOAD_TEXTS.mergedTitle)).toBeTruthy();
    expect(screen.getByText('Total rows: 1,234')).toBeTruthy();
    expect(received.at(-1)).toBe(
      'POST /api/uploads conversionCSV=conv.csv,redownloadsCSV=redl.csv',
    );
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
    answer = {
      status: 400,
      body: { message: 'conversionCSV: not an App Store Connect export', code: 'BAD_REQUEST' },
    };
    await user.click(screen.getByRole('button', { name: 'upload CSV files' }));
    expect(await screen.findByText(UPLOAD_TEXTS.failedTitle)).toBeTruthy();
    expect(screen.getByText('conversionCSV: not an App Store Connect export')).toBeTruthy();
    await waitFor(() =>
      expect(isRefused(screen.getByRole('button', { name: 'upload CSV files' }))).toBe(false),
    );
    expect(screen.getByRole('button', { name: 'back to dashboard' })).toBeTruthy();
  });
});
