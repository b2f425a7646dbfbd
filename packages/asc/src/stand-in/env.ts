import { z } from 'zod';
import { parseEnv } from '@aso/contracts';

/** Environment of the stand-in's command line. */
const ZStandInEnv = z.object({
  /** Port of the demo App Store Connect stand-in (`ASC_API_ORIGIN` of the workers points here). */
  ASC_STAND_IN_PORT: z.coerce.number().int().min(0).max(65535).default(4200),
});

/** Reads the process environment; throws naming a bad variable. */
export const loadStandInEnv = () => parseEnv(ZStandInEnv, process.env);
