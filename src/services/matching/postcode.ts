/** A postcode as it is compared: upper case, letters and digits only ("sw1a 1aa", "SW1A-1AA" and "SW1A1AA" are one). */
export const squashPostcode = (raw: string): string => raw.toUpperCase().replace(/[^A-Z0-9]/g, "");
