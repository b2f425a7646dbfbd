import { z } from 'zod';

/** Environment of the `db:migrate` command. */
export const dbEnv = z
  .object({
    DATABASE_URL: z.string().url().default('postgres://postgres@127.0.0.1:5432/aso'),
  })
  .parse(process.env);
