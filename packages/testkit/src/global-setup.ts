import { ensureTemplate } from './pg';

/** vitest globalSetup of the integration project: migrate the template database once. */
export default async function setup(): Promise<void> {
  await ensureTemplate();
}
