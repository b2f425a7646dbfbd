export { ApiError } from './api.error';
export {
  ApiClient,
  DEFAULT_TIMEOUT_MS,
  type TCallOptions,
  type TPageAnswer,
  type TUploadFile,
} from './api.client';
export { readSse, type TReadSseOptions, type TSseMessage } from './sse.reader';
