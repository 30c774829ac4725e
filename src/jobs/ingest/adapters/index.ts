import type { RegisterSource } from "../../../services/registers/types";
import type { RegisterAdapter } from "../adapter";
import { aml } from "./aml";
import { charity } from "./charity";
import { companies } from "./companies";
import { contracts } from "./contracts";
import { cqc } from "./cqc";
import { genderPayGap } from "./genderPayGap";
import { paymentPractices } from "./paymentPractices";
import { sanctions } from "./sanctions";
import { sponsors } from "./sponsors";
import { sra } from "./sra";

/** Each register's adapter, by source: every source of the catalogue has one. */
export const ADAPTERS: Record<RegisterSource, RegisterAdapter> = {
  aml,
  sra,
  sponsors,
  cqc,
  charity,
  companies,
  sanctions,
  "gender-pay-gap": genderPayGap,
  contracts,
  "payment-practices": paymentPractices,
};
