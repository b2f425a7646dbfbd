/* eslint-disable @typescript-eslint/no-explicit-any -- migrations work on an untyped Kysely<any> (kysely docs) */
import { sql, type Kysely } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.
//
// Each finished audit records the version of the rules catalogue that scored it and the tokens
// its model calls used (prompt and completion tokens, and the number of calls), so the admin's
// audit history can list them without reading every result JSON. Audits finished before stay
// null (unknown).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('audits')
    .addColumn('rules_version', 'text')
    .addColumn('prompt_tokens', 'integer', (c) => c.check(sql`prompt_tokens >= 0`))
    .addColumn('completion_tokens', 'integer', (c) => c.check(sql`completion_tokens >= 0`))
    .addColumn('model_calls', 'integer', (c) => c.check(sql`model_calls >= 0`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('audits')
    .dropColumn('model_calls')
    .dropColumn('completion_tokens')
    .dropColumn('prompt_tokens')
    .dropColumn('rules_version')
    .execute();
}
