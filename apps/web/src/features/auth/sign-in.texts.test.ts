import { describe, expect, it } from 'vitest';
import { ApiError } from '@aso/api-client/error';
import { CODE_FIELD_LABELS, signInProblem } from './sign-in.texts';

const refused = (status: number, body: object) => new ApiError(status, JSON.stringify(body));

describe('signInProblem (docs/product.md#sign-in-screen)', () => {
  it('an invite code at sign-in says so and offers to sign up with it', () => {
    const problem = signInProblem(
      'login',
      refused(401, {
        message: 'This is an invite code: sign up with it.',
        code: 'UNAUTHORIZED',
        reason: 'INVITE_CODE',
      }),
    );
    expect(problem).toEqual({
      title: 'Invite code, not a sign-in code',
      description: 'This is an invite code: sign up with it.',
      switchTo: 'register',
    });
  });
  it('a personal code at sign-up offers to sign in', () => {
    expect(
      signInProblem(
        'register',
        refused(401, {
          message: 'This is your personal sign-in code.',
          code: 'UNAUTHORIZED',
          reason: 'PERSONAL_CODE',
        }),
      ),
    ).toMatchObject({ title: 'You already have an account', switchTo: 'login' });
  });
  it('only an account without a personal code is told to ask for one', () => {
    const legacy = signInProblem(
      'login',
      refused(403, {
        message: 'Ask your administrator.',
        code: 'FORBIDDEN',
        reason: 'NO_PERSONAL_CODE',
      }),
    );
    expect(legacy).toEqual({
      title: 'No personal sign-in code yet',
      description: 'Ask your administrator.',
    });
    const wrong = signInProblem(
      'login',
      refused(401, { message: 'Invalid email or access code', code: 'UNAUTHORIZED' }),
    );
    expect(wrong).toEqual({ title: 'Login Failed', description: 'Invalid email or access code' });
  });
  it('falls back to the documented texts without a server message', () => {
    expect(signInProblem('login', new TypeError('offline'))).toEqual({
      title: 'Login Failed',
      description: 'Failed to login. Please check your credentials.',
    });
    expect(signInProblem('register', new ApiError(500, ''))).toEqual({
      title: 'Registration Failed',
      description: 'Failed to register. Please check your credentials.',
    });
  });
  it('names the code field by what each mode takes', () => {
    expect(CODE_FIELD_LABELS).toEqual({ login: 'Personal sign-in code', register: 'Invite code' });
  });
});
