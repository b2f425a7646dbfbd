import { BotIcon } from 'lucide-react';
import { cn } from '@/lib/utils';

/** Product name shown in the sidebar and on the login screen. */
export const PRODUCT_NAME = 'ASO Audit Robot';
/**
 * Tagline: a robot for ASO audits, a system for ASO analysis, iOS only, alpha
 * (docs/product.md#what-the-product-does).
 */
export const PRODUCT_TAGLINE = 'a robot for ASO audits and analysis';
/** Side text of the login screen (docs/product.md#sign-in-screen). */
export const PRODUCT_SIDE_TEXT = 'a system for ASO analysis · iOS only · alpha';

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
