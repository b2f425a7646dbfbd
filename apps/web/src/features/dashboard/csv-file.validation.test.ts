import { describe, expect, it } from 'vitest';
import {
  CSV_MAX_BYTES,
  CSV_SIZE_MESSAGE,
  CSV_TYPE_MESSAGE,
  validateCsvFile,
} from './csv-file.validation';

describe('validateCsvFile', () => {
  it('accepts a .csv file up to exactly 20 MB', () => {
    expect(validateCsvFile({ name: 'conversion.csv', size: 1234 })).toBeNull();
    expect(validateCsvFile({ name: 'EXPORT.CSV', size: CSV_MAX_BYTES })).toBeNull();
    expect(CSV_MAX_BYTES).toBe(20_971_520);
  });

  it('rejects a name that does not end in .csv', () => {
    expect(validateCsvFile({ name: 'conversion.txt', size: 10 })).toBe(CSV_TYPE_MESSAGE);
    expect(validateCsvFile({ name: 'conversion.csv.xlsx', size: 10 })).toBe(CSV_TYPE_MESSAGE);
    expect(validateCsvFile({ name: 'csv', size: 10 })).toBe(CSV_TYPE_MESSAGE);
    expect(CSV_TYPE_MESSAGE).toBe('Only CSV files are accepted');
  });

  it('rejects one byte over 20 MB', () => {
    expect(validateCsvFile({ name: 'big.csv', size: CSV_MAX_BYTES + 1 })).toBe(CSV_SIZE_MESSAGE);
    expect(CSV_SIZE_MESSAGE).toBe('File size must be less than 20MB');
  });

  it('names the type problem first when both rules are broken', () => {
    expect(validateCsvFile({ name: 'big.txt', size: CSV_MAX_BYTES * 2 })).toBe(CSV_TYPE_MESSAGE);
  });
});
