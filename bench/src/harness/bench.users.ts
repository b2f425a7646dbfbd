import { randomBytes } from 'node:crypto';
import type { ApiClient } from '@aso/api-client';

/** A signed-in benchmark user: its email and bearer token. */
export interface TBenchUser {
  email: string;
  token: string;
}

/**
 * Registers `count` users through `api` with one access code generated for them by the admin
 * (the admin code itself is never handed to users). Emails are unique per call.
 *
 * @throws ApiError of @aso/api-client when the gateway refuses a call.
 */
export async function createUsers(
  api: ApiClient,
  adminCode: string,
  count: number,
): Promise<TBenchUser[]> {
  const { code } = await api.generateCode(adminCode, count);
  if (code.code === null) throw new Error('generate-code answered a code without its text');
  const invite = code.code;
  const tag = randomBytes(4).toString('hex');
  const users: TBenchUser[] = [];
  for (let i = 0; i < count; i++) {
    const email = `bench-${tag}-${i}@example.com`;
    users.push({ email, token: (await api.register(email, invite)).sessionToken });
  }
  return users;
}
