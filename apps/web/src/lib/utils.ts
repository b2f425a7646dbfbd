import { clsx, type ClassValue } from 'clsx';
import { twMerge } from 'tailwind-merge';

/**
 * Joins class names (clsx rules: strings, arrays, `{ class: condition }` objects) and lets
 * later Tailwind utilities override earlier conflicting ones (`px-2` then `px-4` keeps `px-4`).
 */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}
