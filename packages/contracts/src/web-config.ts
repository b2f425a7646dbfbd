import { z } from 'zod';

/**
 * Answer of `GET /api/web-config`: the run-time settings the web app reads at start, so an
 * operator changes them with an environment variable and a restart, never a rebuild.
 */
export const ZWebConfig = z.object({
  /**
   * The creator's site offering a real, human ASO audit (docs/product.md#what-the-product-does: the
   * sidebar's consulting link and the results page's promo block); null when `CONSULTING_URL` is
   * not set, and then neither is shown.
   */
  consultingUrl: z.url({ protocol: /^https?$/ }).nullable(),
});
export type TWebConfig = z.infer<typeof ZWebConfig>;
