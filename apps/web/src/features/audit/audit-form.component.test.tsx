import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { KEYWORDS_MAX_CHARS } from '@aso/contracts';
import { Toaster } from '@/components/ui/toaster';
import { createQueryClient } from '@/lib/query-client';
import { startApiStandIn, type TApiStandIn } from '@/test/api-stand-in';
import { isRefused } from '@/test/dom';
import { AuditForm, INVALID_URL_HINT, type TStartedAudit } from './audit-form';

const SPOTIFY = 'https://apps.apple.com/us/app/spotify-music-and-podcasts/id324684580';
const CALM = 'https://apps.apple.com/us/app/calm/id571800810';

let api: TApiStandIn;
beforeAll(async () => {
  api = await startApiStandIn();
});
afterAll(() => api.close());

function renderForm() {
  const onStarted = vi.fn<(started: TStartedAudit) => void>();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <AuditForm onStarted={onStarted} />
      <Toaster />
    </QueryClientProvider>,
  );
  return { onStarted, start: () => screen.getByRole('button', { name: 'start ASO analysis' }) };
}

describe('AuditForm (docs/product.md#audit-tab, #states-and-transitions and #validation-rules)', () => {
  it('counts the keywords up to the hard limit of 100', async () => {
    const user = userEvent.setup();
    renderForm();
    await user.type(screen.getByLabelText(/Keywords \/ metadata/), 'music,podcast');
    expect(screen.getByTestId('keywords-counter').textContent).toBe(`13/${KEYWORDS_MAX_CHARS}`);
    await user.type(screen.getByLabelText(/Keywords \/ metadata/), 'x'.repeat(120));
    expect(screen.getByTestId('keywords-counter').textContent).toBe(
      `${KEYWORDS_MAX_CHARS}/${KEYWORDS_MAX_CHARS}`,
    );
  });

  it('checks the URL when it is left: hint, disabled start and the Invalid URL toast', async () => {
    const user = userEvent.setup();
    const { start } = renderForm();
    await user.type(screen.getByLabelText('App Store URL'), 'https://example.com/app');
    expect(screen.queryByTestId('invalid-url-hint')).toBeNull();
    await user.tab();
    expect(screen.getByTestId('invalid-url-hint').textContent).toBe(INVALID_URL_HINT);
    expect(isRefused(start())).toBe(true);
    expect(await screen.findByText('Invalid URL')).toBeTruthy();

    // Editing resets the field to idle until it is left again.
    await user.clear(screen.getByLabelText('App Store URL'));
    await user.type(screen.getByLabelText('App Store URL'), SPOTIFY);
    expect(screen.queryByTestId('invalid-url-hint')).toBeNull();
    await user.tab();
    expect(isRefused(start())).toBe(false);
  });

  it('says when a competitor repeats an app', async () => {
    const user = userEvent.setup();
    renderForm();
    await user.type(screen.getByLabelText('App Store URL'), SPOTIFY);
    await user.type(screen.getByLabelText(/Competitor 1/), SPOTIFY);
    await user.tab();
    expect(await screen.findByText('This URL already exists')).toBeTruthy();
  });

  it('starts the audit with the app, the competitors and the keywords', async () => {
    const user = userEvent.setup();
    const { onStarted, start } = renderForm();
    await user.type(screen.getByLabelText('App Store URL'), SPOTIFY);
    await user.type(screen.getByLabelText(/Competitor 2/), CALM);
    await user.type(screen.getByLabelText(/Keywords \/ metadata/), ' music,radio ');
    api.answer(200, { id: 'audit-1' });
    await user.click(start());
    await vi.waitUntil(() => onStarted.mock.calls.length > 0, { timeout: 5_000 });
    expect(onStarted).toHaveBeenCalledWith({ auditId: 'audit-1', validLinks: 2 });
    const sent = api.received.at(-1)!;
    expect(sent.url).toBe('/api/analyze');
    // The URLs as normalised by the shared URL rules (docs/product.md#validation-rules), the
    // keywords trimmed.
    expect(JSON.parse(sent.body)).toEqual({
      appStoreUrl: `${SPOTIFY}?platform=iphone`,
      keywords: 'music,radio',
      competitorUrl1: `${CALM}?platform=iphone`,
    });
  });

  it("shows the server's message when the audit is refused", async () => {
    const user = userEvent.setup();
    const { onStarted, start } = renderForm();
    await user.type(screen.getByLabelText('App Store URL'), SPOTIFY);
    api.answer(429, { message: 'Too many audits: try again in 60 s', code: 'RATE_LIMITED' });
    await user.click(start());
    expect(await screen.findByText('Analysis Failed')).toBeTruthy();
    expect(screen.getByText('Too many audits: try again in 60 s')).toBeTruthy();
    expect(onStarted).not.toHaveBeenCalled();
  });
});
