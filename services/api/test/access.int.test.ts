import { createHash } from 'node:crypto';
import { describe, expect } from 'vitest';
import {
  ZCheckAdminAnswer,
  ZCheckUserAnswer,
  ZMeAnswer,
  ZOk,
  ZRegisterAnswer,
  ZSessionAnswer,
  type TRegisterAnswer,
  type TSessionAnswer,
} from '@aso/contracts';
import { it } from '@aso/testkit/vitest';
import {
  ADMIN_CODE,
  admin,
  bearer,
  credentials,
  expectError,
  generateCode,
  startApi,
} from './access.fixtures';

const INVALID = 'Invalid email or access code';
const EXPIRED = 'This access code has expired';
const USED_UP = 'This access code has no uses left';
const DEACTIVATED = 'This access code has been deactivated';
const TAKEN = 'An account with this email already exists. Please log in.';
const INVITE =
  'This is an invite code: sign up with it. Already signed up with it? Sign in with the personal sign-in code you were shown then (an administrator can issue a new one).';
const PERSONAL =
  'This is your personal sign-in code: your account exists, so sign in with it instead of signing up.';

const session = (res: {
  statusCode: number;
  body: string;
  json: () => unknown;
}): TSessionAnswer => {
  expect(res.statusCode, res.body).toBe(200);
  return ZSessionAnswer.parse(res.json());
};

/** A register answer: the session and the personal sign-in code. */
const registered = (res: {
  statusCode: number;
  body: string;
  json: () => unknown;
}): TRegisterAnswer => {
  expect(res.statusCode, res.body).toBe(200);
  return ZRegisterAnswer.parse(res.json());
};

const NO_PERSONAL_CODE =
  'Your account has no personal sign-in code yet: the access code you registered with is shared, so it no longer signs you in. Please ask your administrator for a personal sign-in code.';

describe('register, login, logout and check-access', () => {
  it('registers, signs in and out, and stores only token hashes', async ({ database, redis }) => {
    const app = await startApi(database, redis);
    try {
      const code = await generateCode(app, { maxUses: 3 });
      const reg = registered(await credentials(app, 'register', '  Alice@Example.COM ', code.code));
      expect(reg.user.email).toBe('alice@example.com');
      expect(reg.sessionToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(reg.signInCode).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
      expect(reg.signInCode).not.toBe(code.code);

      // The access code registers; it never signs in (others may hold it): the answer says so.
      const invite = expectError(
        await credentials(app, 'login', 'alice@example.com', code.code),
        401,
        INVITE,
      );
      expect(invite.reason).toBe('INVITE_CODE');
      // The other way round: the personal code does not sign up, and the answer says so.
      const personal = expectError(
        await credentials(app, 'register', 'alice@example.com', reg.signInCode),
        401,
        PERSONAL,
      );
      expect(personal.reason).toBe('PERSONAL_CODE');
      // ... only to the account's holder: with another email it is an unknown code.
      expect(
        expectError(
          await credentials(app, 'register', 'bob@example.com', reg.signInCode),
          401,
          INVALID,
        ).reason,
      ).toBeUndefined();
      // The personal code, typed in lower case, spaced instead of dashed: still the same code.
      const typed = reg.signInCode.toLowerCase().replaceAll('-', ' ');
      const login = session(await credentials(app, 'login', 'ALICE@example.com', typed));
      expect(login.user).toEqual(reg.user);
      expect(login.sessionToken).not.toBe(reg.sessionToken);

      const check = await app.inject({
        method: 'GET',
        url: '/api/check-access',
        headers: bearer(login.sessionToken),
      });
      expect(check.statusCode).toBe(200);
      expect(ZCheckUserAnswer.parse(check.json())).toEqual({ isUser: true, user: reg.user });

      const me = await app.inject({
        method: 'GET',
        url: '/api/me',
        headers: bearer(reg.sessionToken),
      });
      expect(me.statusCode).toBe(200);
      expect(ZMeAnswer.parse(me.json())).toEqual({ user: reg.user });

      // Only SHA-256 hashes are stored; no column of any session row holds a token.
      const rows = await database.db
        .selectFrom('sessions')
        .selectAll()
        .where('user_id', '=', reg.user.id)
        .execute();
      expect(rows).toHaveLength(2);
      const hashes = [reg.sessionToken, login.sessionToken].map((t) =>
        createHash('sha256').update(t).digest('hex'),
      );
      expect(rows.map((r) => r.token_hash).sort()).toEqual(hashes.sort());
      // The personal code is stored only as its hash.
      const userRow = await database.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', reg.user.id)
        .executeTakeFirstOrThrow();
      expect(userRow.sign_in_code_hash).toBe(
        createHash('sha256').update(reg.signInCode).digest('hex'),
      );
      expect(JSON.stringify(userRow)).not.toContain(reg.signInCode);
      expect(userRow.last_sign_in_at).toBeInstanceOf(Date);
      for (const r of rows) {
        const dump = JSON.stringify(r);
        expect(dump).not.toContain(reg.sessionToken);
        expect(dump).not.toContain(login.sessionToken);
        expect(r.access_code_id).toBe(code.id);
        // SESSION_TTL_DAYS defaults to 30.
        const days = (r.expires_at.getTime() - r.created_at.getTime()) / 86_400_000;
        expect(days).toBeGreaterThan(29.99);
        expect(days).toBeLessThan(30.01);
      }

      // Logout revokes server-side; the other session stays alive.
      const out = await app.inject({
        method: 'POST',
        url: '/api/logout',
        headers: bearer(login.sessionToken),
      });
      expect(out.statusCode).toBe(200);
      expect(ZOk.parse(out.json())).toEqual({ success: true });
      const after = await app.inject({
        method: 'GET',
        url: '/api/check-access',
        headers: bearer(login.sessionToken),
      });
      expect(ZCheckUserAnswer.parse(after.json())).toEqual({ isUser: false, user: null });
      expectError(
        await app.inject({ method: 'GET', url: '/api/me', headers: bearer(login.sessionToken) }),
        401,
        'Your session has expired or is invalid. Please sign in again.',
      );
      const revoked = await database.db
        .selectFrom('sessions')
        .select('revoked_at')
        .where('token_hash', '=', createHash('sha256').update(login.sessionToken).digest('hex'))
        .executeTakeFirstOrThrow();
      expect(revoked.revoked_at).toBeInstanceOf(Date);
      expect(
        (await app.inject({ method: 'GET', url: '/api/me', headers: bearer(reg.sessionToken) }))
          .statusCode,
      ).toBe(200);

      // Logging out again, with no token or with garbage still answers success.
      for (const headers of [bearer(login.sessionToken), {}, bearer('not-a-token')]) {
        const again = await app.inject({ method: 'POST', url: '/api/logout', headers });
        expect(again.statusCode).toBe(200);
        expect(ZOk.parse(again.json())).toEqual({ success: true });
      }
    } finally {
      await app.close();
    }
  });

  it('answers isUser false for a missing, unknown or expired token, and /me 401', async ({
    database,
    redis,
  }) => {
    const app = await startApi(database, redis);
    try {
      const code = await generateCode(app);
      const reg = session(await credentials(app, 'register', 'expiring@example.com', code.code));
      await database.db
        .updateTable('sessions')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where('user_id', '=', reg.user.id)
        .execute();
      for (const headers of [
        {},
        bearer('unknown-token'),
        bearer(reg.sessionToken),
        { authorization: 'Basic abc' },
      ]) {
        const res = await app.inject({ method: 'GET', url: '/api/check-access', headers });
        expect(res.statusCode).toBe(200);
        expect(ZCheckUserAnswer.parse(res.json())).toEqual({ isUser: false, user: null });
        expectError(await app.inject({ method: 'GET', url: '/api/me', headers }), 401, /session/);
      }
    } finally {
      await app.close();
    }
  });

  it('creates exactly maxUses users from 20 concurrent registrations', async ({
    database,
    redis,
  }) => {
    const app = await startApi(database, redis);
    try {
      const code = await generateCode(app, { maxUses: 3 });
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          credentials(app, 'register', `race${i}@example.com`, code.code),
        ),
      );
      const ok = answers.filter((r) => r.statusCode === 200);
      expect(ok).toHaveLength(3);
      for (const r of ok) ZSessionAnswer.parse(r.json());
      for (const r of answers.filter((a) => a.statusCode !== 200)) expectError(r, 403, USED_UP);

      const users = await database.db
        .selectFrom('users')
        .select('email')
        .where('access_code_id', '=', code.id)
        .execute();
      expect(users).toHaveLength(3);
      expect(new Set(ok.map((r) => ZSessionAnswer.parse(r.json()).user.email))).toEqual(
        new Set(users.map((u) => u.email)),
      );
      const row = await database.db
        .selectFrom('access_codes')
        .select('uses')
        .where('id', '=', code.id)
        .executeTakeFirstOrThrow();
      expect(row.uses).toBe(3);
    } finally {
      await app.close();
    }
  });

  it('lets the users of a used-up code log in but registers nobody new', async ({
    database,
    redis,
  }) => {
    const app = await startApi(database, redis);
    try {
      const code = await generateCode(app, { maxUses: 1 });
      const only = registered(await credentials(app, 'register', 'only@example.com', code.code));
      expectError(
        await credentials(app, 'register', 'second@example.com', code.code),
        403,
        USED_UP,
      );
      const login = session(await credentials(app, 'login', 'only@example.com', only.signInCode));
      expect(login.user.email).toBe('only@example.com');
      // Never registered: an invite code is named as one, whoever asks.
      expectError(await credentials(app, 'login', 'second@example.com', code.code), 401, INVITE);
    } finally {
      await app.close();
    }
  });

  it('refuses an expired code for register and login', async ({ database, redis }) => {
    const app = await startApi(database, redis);
    try {
      const code = await generateCode(app, { maxUses: 5, expiresIn: 1 });
      const late = registered(await credentials(app, 'register', 'late@example.com', code.code));
      await database.db
        .updateTable('access_codes')
        .set({ expires_at: new Date(Date.now() - 60_000) })
        .where('id', '=', code.id)
        .execute();
      expectError(await credentials(app, 'register', 'later@example.com', code.code), 403, EXPIRED);
      expectError(
        await credentials(app, 'login', 'late@example.com', late.signInCode),
        403,
        EXPIRED,
      );
      const row = await database.db
        .selectFrom('access_codes')
        .select('uses')
        .where('id', '=', code.id)
        .executeTakeFirstOrThrow();
      expect(row.uses).toBe(1);
    } finally {
      await app.close();
    }
  });

  it('kills the sessions of a deactivated code and refuses it afterwards', async ({
    database,
    redis,
  }) => {
    const app = await startApi(database, redis);
    try {
      const code = await generateCode(app, { maxUses: 3 });
      const other = await generateCode(app, { maxUses: 3 });
      const a = registered(await credentials(app, 'register', 'deact-a@example.com', code.code));
      const b = registered(await credentials(app, 'register', 'deact-b@example.com', code.code));
      const c = registered(await credentials(app, 'register', 'keeps@example.com', other.code));

      const del = await app.inject({
        method: 'DELETE',
        url: `/api/admin/codes/${code.code.toLowerCase()}`,
        headers: admin(),
      });
      expect(del.statusCode, del.body).toBe(200);
      const body = del.json<{
        success: boolean;
        revokedSessions: number;
        code: { active: boolean };
      }>();
      expect(body.success).toBe(true);
      expect(body.revokedSessions).toBe(2);
      expect(body.code.active).toBe(false);

      for (const token of [a.sessionToken, b.sessionToken]) {
        const res = await app.inject({
          method: 'GET',
          url: '/api/check-access',
          headers: bearer(token),
        });
        expect(ZCheckUserAnswer.parse(res.json())).toEqual({ isUser: false, user: null });
        expectError(
          await app.inject({ method: 'GET', url: '/api/me', headers: bearer(token) }),
          401,
          /session/,
        );
      }
      const revoked = await database.db
        .selectFrom('sessions')
        .select(['revoked_at'])
        .where('access_code_id', '=', code.id)
        .execute();
      expect(revoked).toHaveLength(2);
      expect(revoked.every((r) => r.revoked_at instanceof Date)).toBe(true);
      // Sessions of other codes live on.
      expect(
        (await app.inject({ method: 'GET', url: '/api/me', headers: bearer(c.sessionToken) }))
          .statusCode,
      ).toBe(200);

      expectError(
        await credentials(app, 'login', 'deact-a@example.com', a.signInCode),
        403,
        DEACTIVATED,
      );
      expectError(
        await credentials(app, 'register', 'newcomer@example.com', code.code),
        403,
        DEACTIVATED,
      );
    } finally {
      await app.close();
    }
  });

  it('never tells whether an email is registered on login', async ({ database, redis }) => {
    const app = await startApi(database, redis);
    try {
      const mine = await generateCode(app);
      const theirs = await generateCode(app);
      const known = registered(await credentials(app, 'register', 'known@example.com', mine.code));
      const other = registered(
        await credentials(app, 'register', 'other@example.com', theirs.code),
      );

      const answers = [
        await credentials(app, 'login', 'unknown@example.com', known.signInCode),
        await credentials(app, 'login', 'known@example.com', other.signInCode),
        await credentials(app, 'login', 'known@example.com', 'ZZZZ-ZZZZ-ZZZZ-ZZZZ'),
        await credentials(app, 'login', 'unknown@example.com', 'ZZZZ-ZZZZ-ZZZZ-ZZZZ'),
      ];
      const bodies = answers.map((r) => expectError(r, 401, INVALID));
      expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
      // An invite code gets one answer too, for a registered email as for any other.
      const invites = [
        await credentials(app, 'login', 'known@example.com', mine.code),
        await credentials(app, 'login', 'unknown@example.com', mine.code),
        await credentials(app, 'login', 'other@example.com', mine.code.toLowerCase()),
      ].map((r) => expectError(r, 401, INVITE));
      expect(new Set(invites.map((b) => JSON.stringify(b))).size).toBe(1);
      // The admin code is never confirmed at sign-in.
      expectError(await credentials(app, 'login', 'unknown@example.com', ADMIN_CODE), 401, INVALID);
    } finally {
      await app.close();
    }
  });

  it('never signs in with a code others hold: two users of one access code stay apart', async ({
    database,
    redis,
  }) => {
    const app = await startApi(database, redis);
    try {
      const shared = await generateCode(app, { maxUses: 5 });
      const first = registered(
        await credentials(app, 'register', 'first@example.com', shared.code),
      );
      const second = registered(
        await credentials(app, 'register', 'second@example.com', shared.code),
      );
      expect(second.signInCode).not.toBe(first.signInCode);
      // Knowing the shared code and the first user's email is not enough.
      expectError(await credentials(app, 'login', 'first@example.com', shared.code), 401, INVITE);
      expectError(
        await credentials(app, 'login', 'first@example.com', second.signInCode),
        401,
        INVALID,
      );
      expect(
        session(await credentials(app, 'login', 'first@example.com', first.signInCode)).user.id,
      ).toBe(first.user.id);

      // A user who registered before personal codes existed is told what to do, not locked
      // out silently; the shared code still does not sign them in.
      await database.db
        .updateTable('users')
        .set({ sign_in_code_hash: null })
        .where('id', '=', first.user.id)
        .execute();
      expect(
        expectError(
          await credentials(app, 'login', 'first@example.com', shared.code),
          403,
          NO_PERSONAL_CODE,
        ).reason,
      ).toBe('NO_PERSONAL_CODE');
      expectError(
        await credentials(app, 'login', 'first@example.com', first.signInCode),
        401,
        INVALID,
      );
      // The admin issues one; the previous personal code of the second user is unaffected.
      const issued = await app.inject({
        method: 'POST',
        url: `/api/admin/users/${first.user.id}/sign-in-code`,
        headers: admin(),
      });
      expect(issued.statusCode, issued.body).toBe(200);
      const { signInCode, user } = issued.json<{
        signInCode: string;
        user: { email: string; hasSignInCode: boolean };
      }>();
      expect(user).toMatchObject({ email: 'first@example.com', hasSignInCode: true });
      expect(
        session(await credentials(app, 'login', 'first@example.com', signInCode)).user.id,
      ).toBe(first.user.id);
      expect(
        session(await credentials(app, 'login', 'second@example.com', second.signInCode)).user.id,
      ).toBe(second.user.id);

      const users = await app.inject({ method: 'GET', url: '/api/admin/users', headers: admin() });
      expect(users.statusCode).toBe(200);
      // The file's database holds the other tests' users too: look at these two.
      const list = users
        .json<{ email: string; lastSignInAt: string | null }[]>()
        .filter((u) => u.email === 'first@example.com' || u.email === 'second@example.com');
      expect(list.map((u) => u.email).sort()).toEqual(['first@example.com', 'second@example.com']);
      expect(list.every((u) => u.lastSignInAt !== null)).toBe(true);
      expectError(
        await app.inject({
          method: 'POST',
          url: '/api/admin/users/00000000-0000-4000-8000-000000000000/sign-in-code',
          headers: admin(),
        }),
        404,
        'User not found',
      );
    } finally {
      await app.close();
    }
  });

  it('answers 409 for a taken email, and gives the use back', async ({ database, redis }) => {
    const app = await startApi(database, redis);
    try {
      const first = await generateCode(app, { maxUses: 2 });
      const second = await generateCode(app, { maxUses: 2 });
      session(await credentials(app, 'register', 'twice@example.com', first.code));
      expectError(await credentials(app, 'register', 'TWICE@example.com', second.code), 409, TAKEN);
      expectError(await credentials(app, 'register', 'twice@example.com', first.code), 409, TAKEN);
      const uses = await database.db
        .selectFrom('access_codes')
        .select(['id', 'uses'])
        .where('id', 'in', [first.id, second.id])
        .execute();
      expect(Object.fromEntries(uses.map((u) => [u.id, u.uses]))).toEqual({
        [first.id]: 1,
        [second.id]: 0,
      });
      // An unknown code is judged before the email: no hint that the email exists.
      expectError(
        await credentials(app, 'register', 'twice@example.com', 'ZZZZ-ZZZZ-ZZZZ-ZZZZ'),
        401,
        INVALID,
      );
    } finally {
      await app.close();
    }
  });

  it('answers 400 naming the missing or invalid field', async ({ database, redis }) => {
    const app = await startApi(database, redis);
    try {
      // Named as people call the fields; the API's name in `field`.
      const cases: [unknown, string, string][] = [
        [{ accessCode: 'ABCD' }, 'Email is required', 'email'],
        [{ email: 'nobody@example.com' }, 'Access code is required', 'accessCode'],
        [
          { email: 'not an email', accessCode: 'ABCD' },
          'Email must be a valid email address',
          'email',
        ],
        [{ email: 'a@example.com', accessCode: '   ' }, 'Access code is required', 'accessCode'],
        [{ email: 42, accessCode: 'ABCD' }, 'Email must be text', 'email'],
        [
          { email: 'a@example.com', accessCode: 'X'.repeat(65) },
          'Access code must be at most 64 characters',
          'accessCode',
        ],
      ];
      for (const call of ['register', 'login'] as const) {
        for (const [payload, message, field] of cases) {
          const res = await app.inject({
            method: 'POST',
            url: `/api/${call}`,
            payload: payload as object,
          });
          const body = expectError(res, 400, message);
          expect(body.code).toBe('BAD_REQUEST');
          expect(body.field).toBe(field);
        }
      }
    } finally {
      await app.close();
    }
  });

  it('creates the ADMIN_ACCESS_CODE admin code once, and checks admin codes', async ({
    database,
    redis,
  }) => {
    const first = await startApi(database, redis);
    await first.close();
    const app = await startApi(database, redis);
    try {
      const admins = await database.db
        .selectFrom('access_codes')
        .selectAll()
        .where('is_admin', '=', true)
        .execute();
      expect(admins).toHaveLength(1);
      // Stored only as the SHA-256 of its canonical form (upper case, O -> 0 and I -> 1,
      // regrouped by four).
      expect(admins[0]).toMatchObject({
        code: null,
        code_hash: createHash('sha256').update('TEST-ADM1-NC0D-E7Q4-X').digest('hex'),
        active: true,
        expires_at: null,
        uses: 0,
      });

      const check = async (headers: Record<string, string>) => {
        const res = await app.inject({ method: 'GET', url: '/api/check-access', headers });
        expect(res.statusCode, res.body).toBe(200);
        return ZCheckAdminAnswer.parse(res.json());
      };
      expect(await check(admin())).toEqual({ isAdmin: true });
      expect(await check(admin(ADMIN_CODE.toLowerCase().replaceAll('-', '')))).toEqual({
        isAdmin: true,
      });
      expect(await check(admin('wrong-admin-code'))).toEqual({ isAdmin: false });
      // A normal access code is not an admin code.
      const normal = await generateCode(app);
      expect(await check(admin(normal.code))).toEqual({ isAdmin: false });

      // The admin code also registers and signs in a user, whose sessions carry it.
      const reg = session(await credentials(app, 'register', 'boss@example.com', ADMIN_CODE));
      const s = await database.db
        .selectFrom('sessions')
        .select('access_code_id')
        .where('user_id', '=', reg.user.id)
        .executeTakeFirstOrThrow();
      expect(s.access_code_id).toBe(admins[0]!.id);
    } finally {
      await app.close();
    }
  });
});
