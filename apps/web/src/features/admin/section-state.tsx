import { toast } from '@/components/ui/use-toast';
import { formatDateTime } from './admin-form.validation';

/** Copies `text` to the clipboard and says so in a toast. */
export async function copyToClipboard(text: string, label = 'Code'): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast({ title: 'Copied', description: `${label} ${text} copied to the clipboard.` });
  } catch {
    toast({
      variant: 'destructive',
      title: 'Copy Failed',
      description: `Could not copy; select the ${label.toLowerCase()} and copy it by hand.`,
    });
  }
}

/**
 * A date and time of the admin tables ('Dec 3, 2026, 12:27 PM'), kept on one line: a table
 * column narrows by wrapping words, and a time split over two lines reads as two values.
 */
export function AdminTime({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} className="whitespace-nowrap">
      {formatDateTime(iso)}
    </time>
  );
}
