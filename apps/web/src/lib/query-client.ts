import { QueryClient, type QueryFunction } from '@tanstack/react-query';
import { apiFetch } from './api';

/** Cache collection time of unused query data: 5 minutes (docs/product.md#limits-and-constants). */
export const QUERY_GC_TIME_MS = 5 * 60 * 1000;

/**
 * Retry delay if a query opts into retries (the default is no retry): 1 s doubling per attempt
 * up to 30 s (docs/product.md#limits-and-constants).
 */
export function retryDelayMs(attemptIndex: number): number {
  return Math.min(1000 * 2 ** attemptIndex, 30_000);
}

/**
 * Generic read (docs/product.md#api-calls notes): a GET to the query key joined with '/', e.g.
 * `['/api/audit', id]` -> `/api/audit/<id>`. Factories in `./queries.ts` add schemas.
 */
export const defaultQueryFn: QueryFunction = ({ queryKey, signal }) =>
  apiFetch(queryKey.map(String).join('/'), { signal });

/**
 * Builds the app's QueryClient with the documented data-fetching defaults
 * (docs/product.md#api-calls): no retry, no refetch on window focus, no polling, never stale,
 * garbage-collected after 5 minutes.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: defaultQueryFn,
        retry: false,
        retryDelay: retryDelayMs,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        staleTime: Infinity,
        gcTime: QUERY_GC_TIME_MS,
      },
      mutations: { retry: false },
    },
  });
}

/** The app's single QueryClient. */
export const queryClient = createQueryClient();
