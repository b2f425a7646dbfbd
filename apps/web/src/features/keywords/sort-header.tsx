import { ArrowDownIcon, ArrowUpDownIcon, ArrowUpIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { TableHead } from '@/components/ui/table';
import { cn } from '@/lib/utils';
import type { TSort } from './keywords.helpers';

/**
 * A sortable column header: the header cell carries `aria-sort`, its label is a button (in the
 * Tab order, focus ring visible) that sorts by the column, and again to reverse it.
 * `firstDir` is the direction of the first press (ranks: best first, 'asc').
 */
export function SortHeader<K extends string>({
  column,
  sort,
  onSort,
  children,
  firstDir = 'asc',
  className,
}: {
  column: K;
  sort: TSort<K>;
  onSort: (sort: TSort<K>) => void;
  children: ReactNode;
  firstDir?: 'asc' | 'desc';
  className?: string;
}) {
  const active = sort.key === column;
  const Icon = !active ? ArrowUpDownIcon : sort.dir === 'asc' ? ArrowUpIcon : ArrowDownIcon;
  return (
    <TableHead
      aria-sort={active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'}
      className={cn('px-1', className)}
    >
      <button
        type="button"
        onClick={() =>
          onSort({
            key: column,
            dir: active ? (sort.dir === 'asc' ? 'desc' : 'asc') : firstDir,
          })
        }
        className={cn(
          'inline-flex items-center gap-1 rounded px-2 py-1 text-left outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50',
          active && 'text-foreground',
        )}
        data-testid={`sort-${column}`}
      >
        {children}
        <Icon className="size-3 shrink-0" aria-hidden />
      </button>
    </TableHead>
  );
}
