import { useQuery } from '@tanstack/react-query';
import { ArrowUpRightIcon, UserRoundCheckIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { webConfigQuery } from '@/lib/queries';

/**
 * The creator's promo block offering a real, human ASO audit (docs/product.md#what-the-product-does
 * and #result-page); shown only when the operator configured the consulting site
 * (`CONSULTING_URL`), never a placeholder.
 */
export function PromoBlock() {
  const consultingUrl = useQuery(webConfigQuery()).data?.consultingUrl ?? null;
  if (!consultingUrl) return null;
  return (
    <section
      className="relative overflow-hidden rounded-xl bg-sidebar p-6 text-sidebar-foreground shadow-sm sm:p-8"
      data-testid="promo-block"
    >
      <div className="pointer-events-none absolute -top-24 -right-24 size-72 rounded-full bg-indigo-500/25 blur-3xl" />
      <div className="relative flex flex-col gap-5 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex gap-4">
          <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-sidebar-primary/20 text-sidebar-primary">
            <UserRoundCheckIcon className="size-5" aria-hidden />
          </span>
          <div className="space-y-1">
            <h2 className="text-lg font-semibold text-white">
              Want a human to look at your app page?
            </h2>
            <p className="max-w-xl text-sm text-sidebar-muted-foreground">
              The robot covers the basics. From the creator of this tool: a hands-on ASO audit by a
              specialist, with keyword research, screenshot reviews and a prioritised plan for your
              listing.
            </p>
          </div>
        </div>
        <Button asChild className="bg-white text-sidebar hover:bg-white/90">
          <a href={consultingUrl} target="_blank" rel="noopener noreferrer">
            get a human ASO audit <ArrowUpRightIcon />
          </a>
        </Button>
      </div>
    </section>
  );
}
