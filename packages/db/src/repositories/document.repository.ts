import type { TDb } from '../client';
import type { TDocumentRow } from '../schema';

/** What identifies a document: its owner, what it shows and which of those. */
export interface TDocumentKey {
  userId: string;
  kind: 'audit' | 'dashboard';
  subjectId: string;
}

/** The stored PDF of `key`, or undefined when none was rendered yet. */
export async function findDocument(db: TDb, key: TDocumentKey): Promise<TDocumentRow | undefined> {
  return db
    .selectFrom('documents')
    .selectAll()
    .where('user_id', '=', key.userId)
    .where('kind', '=', key.kind)
    .where('subject_id', '=', key.subjectId)
    .executeTakeFirst();
}

/** Stores (or replaces) the PDF of `key` rendered from `version`. */
export async function upsertDocument(
  db: TDb,
  key: TDocumentKey,
  input: { version: string; fileName: string; pdf: Buffer; pages: number },
): Promise<void> {
  await db
    .insertInto('documents')
    .values({
      user_id: key.userId,
      kind: key.kind,
      subject_id: key.subjectId,
      version: input.version,
      file_name: input.fileName,
      pdf: input.pdf,
      pages: input.pages,
    })
    .onConflict((oc) =>
      oc.columns(['user_id', 'kind', 'subject_id']).doUpdateSet({
        version: input.version,
        file_name: input.fileName,
        pdf: input.pdf,
        pages: input.pages,
        rendered_at: new Date(),
      }),
    )
    .execute();
}
