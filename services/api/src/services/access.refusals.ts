import type { TAccessCodeRow } from '@aso/db';
import { AppError } from '../lib/app-error';

/**
 * Messages of refused sign-ins, shown by the client as they are (docs/product.md#error-catalogue:
 * 'Login Failed' / 'Registration Failed' show the server message).
 */
export const ACCESS_MESSAGES = {
  invalid: 'Invalid email or access code',
  expired: 'This access code has expired',
  usedUp: 'This access code has no uses left',
  deactivated: 'This access code has been deactivated',
  emailTaken: 'An account with this email already exists. Please log in.',
  noPersonalCode:
    'Your account has no personal sign-in code yet: the access code you registered with is shared, so it no longer signs you in. Please ask your administrator for a personal sign-in code.',
  inviteCode:
    'This is an invite code: sign up with it. Already signed up with it? Sign in with the personal sign-in code you were shown then (an administrator can issue a new one).',
  personalCode:
    'This is your personal sign-in code: your account exists, so sign in with it instead of signing up.',
} as const;

/** Whether access code `row` has expired at `now` (a code without `expires_at` never does). */
export const isExpired = (row: TAccessCodeRow, now: Date): boolean =>
  row.expires_at !== null && row.expires_at.getTime() <= now.getTime();

/**
 * 401 'Invalid email or access code': the one answer to every wrong pair, so it never tells
 * whether an email is registered (docs/product.md#access-and-sessions).
 */
export const invalidCredentials = (): AppError =>
  new AppError('UNAUTHORIZED', ACCESS_MESSAGES.invalid);
