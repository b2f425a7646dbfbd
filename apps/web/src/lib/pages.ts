/**
 * Paged lists (docs/product.md#lists-and-pages) as TanStack infinite queries: the first page is
 * the list's address, each next page the `Link` the previous one named, and "Load more"
 * (`components/load-more.tsx`) fetches it. Invalidating the key reads every loaded page again.
 */
import { infiniteQueryOptions, type InfiniteData, type QueryKey } from '@tanstack/react-query';
import { apiFetchPage, type TSchema, type TPage } from './api';

/** Reads one page at `path` (the first, or a `next`). */
export type TPageReader<T> = (path: string, signal: AbortSignal) => Promise<TPage<T>>;

/**
 * Infinite query options of the paged list at `first` under `queryKey`, read with `read`
 * (default: the app's client with `schema`).
 */
export function pagedQuery<T, K extends QueryKey>(
  queryKey: K,
  first: string,
  read: TPageReader<T> | TSchema<T>,
) {
  const readPage: TPageReader<T> =
    typeof read === 'function'
      ? read
      : (path, signal) => apiFetchPage(path, { signal, schema: read });
  return infiniteQueryOptions<TPage<T>, Error, InfiniteData<TPage<T>, string>, K, string>({
    queryKey,
    queryFn: ({ pageParam, signal }) => readPage(pageParam, signal),
    initialPageParam: first,
    getNextPageParam: (last) => last.next ?? undefined,
  });
}

/** The items of every loaded page, in order (undefined before the first page arrived). */
export function pageItems<T, I>(
  data: InfiniteData<TPage<T>, unknown> | undefined,
  items: (page: T) => I[],
): I[] | undefined {
  return data?.pages.flatMap((p) => items(p.data));
}
