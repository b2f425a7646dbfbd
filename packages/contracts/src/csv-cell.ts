/**
 * How a cell is written to a CSV file a person opens in a spreadsheet: the one rule of the
 * processed CSV download (`@aso/db`'s dataset CSV writer) and the dashboard's "export CSV" in
 * the browser, so both files read the same.
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const BARE_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * Neutralises text a spreadsheet would run as a formula (OWASP "CSV Injection",
 * https://owasp.org/www-community/attacks/CSV_Injection): text beginning with '=', '+', '-',
 * '@', tab or CR gets a leading single quote. A bare number such as '-12.5' or '-1e3' is data,
 * not a formula, and stays as it is.
 */
export function escapeFormulaText(text: string): string {
  if (!FORMULA_START.test(text) || BARE_NUMBER.test(text)) return text;
  return `'${text}`;
}

/**
 * One cell as CSV text: finite numbers as JavaScript writes them (1234, -5, 12.5), missing
 * values and non-finite numbers empty, text through {@link escapeFormulaText}.
 */
export function csvCellText(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  return escapeFormulaText(value);
}
