import { ArrowLeftIcon } from 'lucide-react';
import { Link, useNavigate, useParams } from 'react-router';
import { useMainScreen } from '@/features/shell/main-screen.context';
import { AuditResult } from './audit-result';

/**
 * Route `/results/:id`: the standalone result page with a back-to-home link
 * (docs/product.md#result-page).
 */
export function ResultPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { setAuditView, setTab } = useMainScreen();
  const home = () => {
    setAuditView({ kind: 'form' });
    setTab('audit');
    void navigate('/');
  };
  return (
    <div>
      <div className="mx-auto w-full max-w-6xl px-4 pt-6 sm:px-6">
        <Link
          to="/"
          className="inline-flex items-center gap-1.5 text-sm text-muted-foreground hover:text-foreground"
          data-testid="back-home"
        >
          <ArrowLeftIcon className="size-4" /> back to home
        </Link>
      </div>
      <AuditResult key={id} auditId={id} variant="page" onNewAnalysis={home} onBack={home} />
    </div>
  );
}
