/** Said with every logo this service returns (company-logo, brand-kit): the marks remain their owners'. */
export const LOGO_NOTICE =
  "Logos are provided to identify the company only. Trademarks and logos remain the property of their owners; using them does not imply endorsement, and you are responsible for having the right to display them.";
