/**
 * Route `/s/:token`: an audit opened through a share link, without an account. Shows the
 * result and its PDF download, nothing of the owner's and no way into the app; never indexed
 * (robots meta here, `X-Robots-Tag` from the server).
 */
import { useParams } from 'react-router';
import { BrandMark, PRODUCT_NAME } from '@/components/brand/brand';
import { MAIN_CONTENT_ID } from '@/components/ui/skip-link';
import { AuditResult } from '@/features/results/audit-result';

/** The shared audit's page. */
export function SharedPage() {
  const { token = '' } = useParams();
  return (
    <div className="min-h-svh bg-background">
      <meta name="robots" content="noindex, nofollow" />
      <title>{`Shared ASO audit · ${PRODUCT_NAME}`}</title>
      <header className="border-b bg-card">
        <div className="mx-auto flex w-full max-w-6xl items-center gap-3 px-4 py-3 sm:px-6">
          <BrandMark className="size-8" />
          <span className="font-semibold">{PRODUCT_NAME}</span>
        </div>
      </header>
      <main id={MAIN_CONTENT_ID} tabIndex={-1} className="outline-none" data-testid="shared-page">
        <AuditResult
          key={token}
          auditId=""
          shareToken={token}
          variant="shared"
          onNewAnalysis={() => undefined}
        />
      </main>
    </div>
  );
}
