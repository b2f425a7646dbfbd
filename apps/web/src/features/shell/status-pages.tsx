import { FileQuestionIcon, Loader2Icon } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { MAIN_CONTENT_ID } from '@/components/ui/skip-link';

/** Shown while the session check runs (docs/product.md#routes). */
export function LoadingScreen() {
  return (
    <main
      id={MAIN_CONTENT_ID}
      tabIndex={-1}
      className="flex min-h-svh items-center justify-center gap-3 text-muted-foreground outline-none"
    >
      <Loader2Icon className="size-5 animate-spin text-primary" aria-hidden />
      <span role="status">Loading...</span>
    </main>
  );
}

/** Any unmatched path for a signed-in user (docs/product.md#routes): ' 404 Page Not Found'. */
export function NotFoundPage() {
  return (
    <main
      id={MAIN_CONTENT_ID}
      tabIndex={-1}
      className="flex min-h-svh items-center justify-center bg-background px-4 outline-none"
    >
      <div className="w-full max-w-md rounded-xl border bg-card p-8 text-center shadow-sm">
        <FileQuestionIcon className="mx-auto size-10 text-destructive" />
        <h1 className="mt-4 text-2xl font-bold tracking-tight">{' 404 Page Not Found'}</h1>
        <p className="mt-2 text-sm text-muted-foreground">
          The page you are looking for does not exist.
        </p>
        <Button asChild className="mt-6">
          <Link to="/">back to home</Link>
        </Button>
      </div>
    </main>
  );
}
