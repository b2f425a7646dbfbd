import { z } from 'zod';

/** A JSON:API resource as App Store Connect answers it. */
export const ZResource = z.object({
  id: z.string(),
  type: z.string(),
  attributes: z.record(z.string(), z.unknown()).optional(),
});
/** A page of a JSON:API list, with the link to the next. */
export const ZPage = z.object({
  data: z.array(ZResource),
  links: z.object({ next: z.string().optional() }).partial().optional(),
});
/** One JSON:API resource. */
export const ZSingle = z.object({ data: ZResource });
/** An app the key sees (`GET /v1/apps`). */
export interface TAscApp {
  appId: string;
  name: string;
  bundleId: string;
}

/** A report request (`analyticsReportRequests`). */
export interface TAscReportRequest {
  id: string;
  accessType: 'ONGOING' | 'ONE_TIME_SNAPSHOT';
  stoppedDueToInactivity: boolean;
}

/** A report (`analyticsReports`). */
export interface TAscReport {
  id: string;
  name: string;
  category: string;
}

/** A report instance (`analyticsReportInstances`): `processingDate` is YYYY-MM-DD. */
export interface TAscReportInstance {
  id: string;
  granularity: string;
  processingDate: string;
}

/** A segment (`analyticsReportSegments`): where to download it, its size and MD5 (hex). */
export interface TAscSegment {
  id: string;
  url: string;
  checksum: string;
  sizeInBytes: number;
}

/** Attribute `name` of a resource (undefined when absent). */
export const attr = (r: z.infer<typeof ZResource>, name: string): unknown => r.attributes?.[name];
/** `v` when it is a string, else ''. */
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
