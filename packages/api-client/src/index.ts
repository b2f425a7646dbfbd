export {
  ApiClient,
  ApiError,
  DEFAULT_TIMEOUT_MS,
  type TCallOptions,
  type TUploadFile,
} from './api.client';
export { readSse, type ReadSseOptions, type TSseMessage } from './sse.reader';
