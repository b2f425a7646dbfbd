export { ApiError } from './api.error';
export { ApiClient, DEFAULT_TIMEOUT_MS, type TCallOptions, type TUploadFile } from './api.client';
export { readSse, type ReadSseOptions, type TSseMessage } from './sse.reader';
