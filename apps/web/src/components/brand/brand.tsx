import { BotIcon } from 'lucide-react';
import { cn } from '@/lib/utils';

/** Product name shown in the sidebar and on the login screen. */
export const PRODUCT_NAME = 'ASO Audit Robot';
/** Tagline: a robot for ASO audits, a system for ASO analysis, iOS only, alpha (spec sections 1-2). */
export const PRODUCT_TAGLINE = 'a robot for ASO audits and analysis';
/** Side text of the login screen (spec section 2). */
export const PRODUCT_SIDE_TEXT = 'a system for ASO analysis · iOS only · alpha';

/**
 * Where the product's creator offers a real, human ASO audit (spec section 1: the sidebar's
 * external consulting link and the results page's promo block). The spec does not name the
 * site, so it is configuration: set `VITE_CONSULTING_URL` at build time; the default is a
 * placeholder on the reserved example.com domain.
 */
export const CONSULTING_URL: string =
  (import.meta.env.VITE_CONSULTING_URL as string | undefined) ??
  'https://example.com/human-aso-audit';

/** The robot mark. */
export function BrandMark({ className }: { className?: string }) {
  return (
    <span
      className={cn(
        'flex size-9 shrink-0 items-center justify-center rounded-lg bg-gradient-to-br from-indigo-500 to-violet-600 text-white shadow-sm',
        className,
      )}
    >
      <BotIcon className="size-5" />
    </span>
  );
}
