import type { TSectionKey } from '@aso/contracts';

/**
 * Display names of the sections (docs/product.md#results-view: ASO Analysis sections; IAE = in-app
 * events).
 */
export const SECTION_LABELS: Record<TSectionKey, string> = {
  title: 'Title',
  subtitle: 'Subtitle',
  keywords: 'Keyword Field',
  icon: 'Icon',
  video: 'Video',
  screenshots: 'Screenshots',
  rating: 'Rating',
  category: 'Category',
  inAppEvents: 'IAE',
  description: 'Description',
  updates: 'Updates',
  localization: 'Localization',
  reviews: 'Reviews',
  appSize: 'App Size',
  compatibility: 'Compatibility',
};

/**
 * What improving a section is expected to do, named in every recommendation ("each
 * naming the section and the expected effect").
 */
export const SECTION_EFFECTS: Record<TSectionKey, string> = {
  title: 'More search visibility: the title carries the most keyword weight.',
  subtitle: 'More search visibility and a clearer promise under the name in search results.',
  keywords: 'Ranking for more search terms without changing visible text.',
  icon: 'Higher tap-through from search results and browse lists.',
  video: 'Higher conversion of product page visits to downloads.',
  screenshots: 'Higher conversion: the first screenshots decide most installs from search.',
  rating: 'Higher conversion and search ranking: ratings show in every result.',
  category: 'More browse traffic from category charts.',
  inAppEvents: 'Extra placements in search and the Today tab, and reactivation of lapsed users.',
  description: 'Higher conversion of visitors who read past the screenshots.',
  updates: 'More trust from shoppers and a fresh "What\'s New" on the product page.',
  localization: 'More shoppers reached in their own language.',
  reviews: 'Higher conversion and a better rating as the causes of complaints are fixed.',
  appSize: 'Fewer downloads abandoned behind the cellular download prompt.',
  compatibility: 'Listings in more device App Stores.',
};
