/**
 * The iOS App Store's genre ids and their English names, as Apple's lookup API gives them
 * (`primaryGenreId`, `genreIds`) and Apple documents them (the genre mapping of the iTunes
 * affiliate documentation, https://www.apple.com/itunes/affiliates/resources/documentation/genre-mapping.html,
 * with the names the App Store shows today: 6021 'Magazines & Newspapers', 7003 'Casual'). A
 * storefront in another language names the category in its own language ('생산성'); the id says
 * which category it is, so the interface can name it in English beside it.
 */
export const APP_STORE_GENRES: Readonly<Record<string, string>> = {
  '6000': 'Business',
  '6001': 'Weather',
  '6002': 'Utilities',
  '6003': 'Travel',
  '6004': 'Sports',
  '6005': 'Social Networking',
  '6006': 'Reference',
  '6007': 'Productivity',
  '6008': 'Photo & Video',
  '6009': 'News',
  '6010': 'Navigation',
  '6011': 'Music',
  '6012': 'Lifestyle',
  '6013': 'Health & Fitness',
  '6014': 'Games',
  '6015': 'Finance',
  '6016': 'Entertainment',
  '6017': 'Education',
  '6018': 'Books',
  '6020': 'Medical',
  '6021': 'Magazines & Newspapers',
  '6022': 'Catalogs',
  '6023': 'Food & Drink',
  '6024': 'Shopping',
  '6025': 'Stickers',
  '6026': 'Developer Tools',
  '6027': 'Graphics & Design',
  '7001': 'Action',
  '7002': 'Adventure',
  '7003': 'Casual',
  '7004': 'Board',
  '7005': 'Card',
  '7006': 'Casino',
  '7007': 'Dice',
  '7008': 'Educational',
  '7009': 'Family',
  '7011': 'Music',
  '7012': 'Puzzle',
  '7013': 'Racing',
  '7014': 'Role Playing',
  '7015': 'Simulation',
  '7016': 'Sports',
  '7017': 'Strategy',
  '7018': 'Trivia',
  '7019': 'Word',
};

/** A category name compared loosely: case, '&' / 'and', spaces and punctuation aside. */
function loose(name: string): string {
  return name
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/**
 * The category as the interface shows it: the storefront's own name, with the English name of
 * its genre beside it when they differ ('생산성 (Productivity)'; 'Productivity' stays as it is).
 * An unknown or missing genre id leaves the storefront's name alone. Null for no category.
 */
export function categoryLabel(
  category: string | null | undefined,
  genreId: string | null | undefined,
): string | null {
  if (!category) return null;
  const english = genreId ? APP_STORE_GENRES[genreId] : undefined;
  if (!english || loose(english) === loose(category)) return category;
  return `${category} (${english})`;
}
