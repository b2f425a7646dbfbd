/**
 * Checks of the Generate Access Code form (docs/product.md#validation-rules: "Admin generate:
 * maxUses a number, minimum 1; expiry days optional, minimum 1"; section 9: "Access code form
 * default: 3 max uses") and small display helpers of the admin screen.
 */

/** Default of the max-uses field (docs/product.md#limits-and-constants). */
export const DEFAULT_MAX_USES = 3;

/** Result of {@link parseGenerateForm}. */
export type TGenerateFormResult =
  | { ok: true; value: { maxUses: number; expiresIn?: number } }
  | { ok: false; errors: { maxUses?: string; expiresIn?: string } };

function wholeNumber(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const n = Number(trimmed);
  return Number.isSafeInteger(n) ? n : null;
}

/**
 * Reads the form's two text fields: max uses must be a whole number of at least 1; expiry days
 * may be empty, else a whole number of at least 1. Errors name the field.
 */
export function parseGenerateForm(maxUses: string, expiresIn: string): TGenerateFormResult {
  const errors: { maxUses?: string; expiresIn?: string } = {};
  const uses = wholeNumber(maxUses);
  if (uses === null || uses < 1) errors.maxUses = 'Max uses must be a whole number of at least 1';
  let days: number | undefined;
  if (expiresIn.trim() !== '') {
    const parsed = wholeNumber(expiresIn);
    if (parsed === null || parsed < 1)
      errors.expiresIn = 'Expiry must be a whole number of days, at least 1';
    else days = parsed;
  }
  if (errors.maxUses || errors.expiresIn) return { ok: false, errors };
  return {
    ok: true,
    value: days === undefined ? { maxUses: uses! } : { maxUses: uses!, expiresIn: days },
  };
}

const DATE_TIME = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** An ISO timestamp as 'Nov 21, 2026, 09:00 AM' (local time); the raw text when it does not parse. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? iso : DATE_TIME.format(ms);
}

/**
 * 'Admin' or 'User' for an audit made with an admin or a user code (docs/product.md#admin-screen:
 * Audit History).
 */
export function codeTypeLabel(isAdminCode: boolean): 'Admin' | 'User' {
  return isAdminCode ? 'Admin' : 'User';
}
