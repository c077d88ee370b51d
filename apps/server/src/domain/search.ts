/**
 * Text as the console's search compares it: lower case, accents and other combining marks removed
 * after compatibility decomposition — "María" and "MARIA" are both "maria", "Ｍａｒｉａ" too. Stored
 * beside a name on every write (`users.name_folded`), and applied to what is typed, so both
 * databases compare the same folded text with a plain `like`.
 */
export const foldForSearch = (s: string): string => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
