import { describe, expect, it } from 'vitest';
import { fieldLabel, humanFieldMessage } from './errors';

describe('humanFieldMessage (docs/product.md#error-answers)', () => {
  it("names an upload's field as people call it and keeps the field apart", () => {
    expect(
      humanFieldMessage(
        'conversionCSV: no header row with a Date column found in the first 20 lines',
      ),
    ).toEqual({
      message: 'Conversion export: no header row with a Date column found in the first 20 lines',
      field: 'conversionCSV',
    });
    expect(
      humanFieldMessage('redownloadsCSV was sent more than once: send one file per field'),
    ).toEqual({
      message: 'Redownloads export was sent more than once: send one file per field',
      field: 'redownloadsCSV',
    });
  });
  it('does not repeat a field the message names again', () => {
    expect(humanFieldMessage('accessCode: accessCode is required')).toEqual({
      message: 'Access code is required',
      field: 'accessCode',
    });
    expect(humanFieldMessage('email must be a valid email address').message).toBe(
      'Email must be a valid email address',
    );
  });
  it('reads issues joined by "; " one by one, the first field kept', () => {
    expect(
      humanFieldMessage(
        'appStoreUrl: Enter a valid App Store URL.; competitorUrl2: "xx" is not an App Store storefront',
      ),
    ).toEqual({
      message:
        'App Store link: Enter a valid App Store URL.; Competitor 2 link: "xx" is not an App Store storefront',
      field: 'appStoreUrl',
    });
    expect(humanFieldMessage('configJson.dateRange.start: start must be on or before end')).toEqual(
      {
        message: 'Config json date range start: start must be on or before end',
        field: 'configJson.dateRange.start',
      },
    );
  });
  it('leaves other messages alone', () => {
    for (const message of [
      'upload: merging these files took longer than 20 s',
      'iPhone screenshots could not be read',
      'Invalid email or access code',
      'body must be a JSON object with email and accessCode',
    ])
      expect(humanFieldMessage(message)).toEqual({ message });
  });
  it('names unlisted fields by their words', () => {
    expect(fieldLabel('expiresInDays')).toBe('Expires in days');
    expect(fieldLabel('maxUses')).toBe('Max uses');
    expect(fieldLabel('competitorUrl3')).toBe('Competitor 3 link');
  });
});
