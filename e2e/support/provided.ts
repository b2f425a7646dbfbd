/** Values the browser project's global setup hands to tests (`inject('baseUrl')`, ...). */
declare module 'vitest' {
  // vitest's own interface, augmented: its name is not ours to choose.
  // eslint-disable-next-line @typescript-eslint/naming-convention
  export interface ProvidedContext {
    /** Origin of the api serving the built web app, e.g. `http://127.0.0.1:41234`. */
    baseUrl: string;
    /** The admin access code the api was started with (`ADMIN_ACCESS_CODE`). */
    adminCode: string;
    /** Origin of the store replay server the workers scrape. */
    replayUrl: string;
    /** The api's (cloned) database, for tests that must change rows directly (e.g. expire a dataset). */
    databaseUrl: string;
    /** The consulting site the api was started with (`CONSULTING_URL`). */
    consultingUrl: string;
  }
}

export {};
