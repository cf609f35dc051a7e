declare namespace Cloudflare {
  interface Env {
    SENTRY_SINK_URL: string;
  }
}
