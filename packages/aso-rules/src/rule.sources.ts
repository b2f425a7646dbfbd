import type { TRuleDefinition, TRuleSource } from '@aso/contracts';

/** Sources the rules cite. */
export const APPLE = {
  appInformation: {
    kind: 'apple',
    label: 'App Store Connect Help, App information',
    url: 'https://developer.apple.com/help/app-store-connect/reference/app-information',
  },
  platformVersion: {
    kind: 'apple',
    label: 'App Store Connect Help, Platform version information',
    url: 'https://developer.apple.com/help/app-store-connect/reference/platform-version-information',
  },
  screenshots: {
    kind: 'apple',
    label: 'App Store Connect Help, Screenshot specifications',
    url: 'https://developer.apple.com/help/app-store-connect/reference/screenshot-specifications',
  },
  previews: {
    kind: 'apple',
    label: 'App Store Connect Help, App preview specifications',
    url: 'https://developer.apple.com/help/app-store-connect/reference/app-preview-specifications',
  },
  inAppEvents: {
    kind: 'apple',
    label: 'App Store Connect Help, Configure event details',
    url: 'https://developer.apple.com/help/app-store-connect/offer-in-app-events/configure-event-details',
  },
  productPage: {
    kind: 'apple',
    label: 'Apple Developer, Creating your product page',
    url: 'https://developer.apple.com/app-store/product-page/',
  },
  search: {
    kind: 'apple',
    label: 'Apple Developer, App Store search',
    url: 'https://developer.apple.com/app-store/search/',
  },
  ratings: {
    kind: 'apple',
    label: 'Apple Developer, Ratings, reviews and responses',
    url: 'https://developer.apple.com/app-store/ratings-and-reviews/',
  },
  buildSizes: {
    kind: 'apple',
    label: 'App Store Connect Help, Maximum build file sizes',
    url: 'https://developer.apple.com/help/app-store-connect/reference/maximum-build-file-sizes',
  },
  localization: {
    kind: 'apple',
    label: 'App Store Connect Help, Localize App Store information',
    url: 'https://developer.apple.com/help/app-store-connect/manage-app-information/localize-app-store-information',
  },
} as const satisfies Record<string, TRuleSource>;

/** This product's own rule, with the reason it holds (docs/product.md#audit-scoring). */
export const productRule = (reason: string): TRuleSource => ({
  kind: 'product',
  label: `This product's rule: ${reason}`,
  url: null,
});
/** Common practice of the trade, with what it holds. */
export const industry = (label: string): TRuleSource => ({
  kind: 'industry',
  label: `Industry practice: ${label}`,
  url: null,
});

type TRuleInput = Omit<TRuleDefinition, 'version'> & { version?: number };
/** A catalogue entry; `version` 1 unless given. */
export const rule = (r: TRuleInput): TRuleDefinition => ({ version: 1, ...r });
