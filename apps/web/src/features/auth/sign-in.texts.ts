/**
 * The texts of the sign-in screen (docs/product.md#sign-in-screen and #error-catalogue): the two
 * codes explained, the field's name in each mode, and what a refused sign-in or sign-up says.
 * Pure, no React.
 */
// Relative: the unit tests resolve no '@/' alias.
import { ApiError, serverMessage } from '../../lib/api';

/** 'login' signs in with the personal sign-in code; 'register' signs up with an invite code. */
export type TSignInMode = 'login' | 'register';

/** The code field's label per mode. */
export const CODE_FIELD_LABELS: Record<TSignInMode, string> = {
  login: 'Personal sign-in code',
  register: 'Invite code',
};

/** The two codes, as the screen explains them. */
export const CODE_EXPLANATIONS = {
  invite:
    'Invite code: the access code an administrator gave you, often shared with your team. It signs you up once.',
  personal:
    'Personal sign-in code: yours alone, shown once right after you sign up. It signs you in from then on; an administrator can issue a new one.',
} as const;

/** A refused sign-in or sign-up as the screen shows it (one message, under the form). */
export interface TSignInProblem {
  title: string;
  description: string;
  /** The mode that would work with the same code ('sign up with this code'), when known. */
  switchTo?: TSignInMode;
}

/** Both fields are needed (docs/product.md#validation-rules). */
export const MISSING_INFORMATION: TSignInProblem = {
  title: 'Missing Information',
  description: 'Please enter both email and access code.',
};

/**
 * What a refused `POST /api/login` or `/api/register` shows, from the answer's `reason`: an
 * invite code at sign-in says so and offers to sign up with it; a personal code at sign-up
 * offers to sign in; an account without a personal code yet says to ask an administrator;
 * anything else is 'Login Failed' / 'Registration Failed' with the server's message.
 */
export function signInProblem(mode: TSignInMode, err: unknown): TSignInProblem {
  const reason = err instanceof ApiError ? err.body?.reason : undefined;
  if (reason === 'INVITE_CODE') {
    return {
      title: 'Invite code, not a sign-in code',
      description: serverMessage(err, 'This is an invite code: sign up with it.'),
      switchTo: 'register',
    };
  }
  if (reason === 'PERSONAL_CODE') {
    return {
      title: 'You already have an account',
      description: serverMessage(err, 'This is your personal sign-in code: sign in with it.'),
      switchTo: 'login',
    };
  }
  if (reason === 'NO_PERSONAL_CODE') {
    return {
      title: 'No personal sign-in code yet',
      description: serverMessage(
        err,
        'Your account was made before personal sign-in codes: ask your administrator for one.',
      ),
    };
  }
  return mode === 'login'
    ? {
        title: 'Login Failed',
        description: serverMessage(err, 'Failed to login. Please check your credentials.'),
      }
    : {
        title: 'Registration Failed',
        description: serverMessage(err, 'Failed to register. Please check your credentials.'),
      };
}
