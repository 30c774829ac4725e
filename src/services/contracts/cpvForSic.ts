/**
 * SIC 2007 → CPV (issue 18 §2 tender-match): which parts of the Common Procurement Vocabulary a company's SIC codes
 * point to, so open tenders can be searched by the CPV codes buyers classify them with. Pure data and one lookup.
 *
 * This is OUR OWN MAPPING, written for ranking tenders; it is not an official concordance (there is none between
 * UK SIC 2007 and CPV 2008). Each entry says why in words. Keys are SIC prefixes: a division (2 digits), a group
 * (3), a class (4) or a subclass (5); the longest key that a code starts with decides, so a broad division can be
 * refined where it is too broad (62 → 6201 programming, 6202 consultancy …). CPV targets are prefixes of CPV codes
 * (the code less its trailing zeros: 72000000 → "72", 79340000 → "7934"): a tender matches when one of its CPV
 * codes starts with one. All 21 SIC sections (A–U) are covered; where no CPV fits well the mapping is broad and
 * says so. Companies House's own codes 74990 (non-trading) and 99999 (dormant) map to nothing.
 * SIC 2003 codes (4 digits, older companies) are read as SIC 2007 prefixes, which may not mean the same.
 */

export interface CpvTarget {
  /** Significant digits of the CPV code (2 to 8). */
  prefix: string;
  /** The CPV code in full (prefix padded with zeros to 8 digits). */
  code: string;
  /** The CPV code's name (CPV 2008). */
  description: string;
}

export interface CpvForSic extends CpvTarget {
  /** The SIC code it comes from, as given. */
  fromSic: string;
  /** The SIC key of the mapping that applied (division, group, class or subclass). */
  sicKey: string;
  /** Why, in words. */
  reason: string;
}

/** CPV 2008 names of the codes this mapping uses, by full code. */
const CPV: Record<string, string> = {
  "03100000": "Agricultural and horticultural products",
  "03121000": "Horticultural products",
  "03200000": "Cereals, potatoes, vegetables, fruits and nuts",
  "03300000": "Farming, hunting and fishing products",
  "03310000": "Fish, crustaceans and aquatic products",
  "03400000": "Forestry and logging products",
  "03410000": "Wood",
  "09100000": "Fuels",
  "09110000": "Solid fuels",
  "09300000": "Electricity, heating, solar and nuclear energy",
  "14000000": "Mining, basic metals and related products",
  "14700000": "Basic metals",
  "15000000": "Food, beverages, tobacco and related products",
  "15900000": "Beverages, tobacco and related products",
  "16000000": "Agricultural machinery",
  "18000000": "Clothing, footwear, luggage articles and accessories",
  "18800000": "Footwear",
  "19100000": "Leather",
  "19200000": "Textile fabrics and related items",
  "19500000": "Rubber and plastic materials",
  "22000000": "Printed matter and related products",
  "22100000": "Printed books, brochures and leaflets",
  "24000000": "Chemical products",
  "30190000": "Various office equipment and supplies",
  "30200000": "Computer equipment and supplies",
  "31000000": "Electrical machinery, apparatus, equipment and consumables; lighting",
  "32000000": "Radio, television, communication, telecommunication and related equipment",
  "32500000": "Telecommunications equipment and supplies",
  "33100000": "Medical equipments",
  "33600000": "Pharmaceutical products",
  "34000000": "Transport equipment and auxiliary products to transportation",
  "34100000": "Motor vehicles",
  "34300000": "Parts and accessories for vehicles and their engines",
  "35000000": "Security, fire-fighting, police and defence equipment",
  "37000000": "Musical instruments, sport goods, games, toys, handicraft, art materials and accessories",
  "38000000": "Laboratory, optical and precision equipments (excl. glasses)",
  "39000000": "Furniture (incl. office furniture), furnishings, domestic appliances (excl. lighting) and cleaning products",
  "39100000": "Furniture",
  "39500000": "Textile articles",
  "41000000": "Collected and purified water",
  "42000000": "Industrial machinery",
  "43000000": "Machinery for mining, quarrying, construction equipment",
  "44100000": "Construction materials and associated items",
  "44200000": "Structural products",
  "44220000": "Builders' joinery",
  "44500000": "Tools, locks, keys, hinges, fasteners, chain and springs",
  "45000000": "Construction work",
  "45100000": "Site preparation work",
  "45210000": "Building construction work",
  "45220000": "Engineering works and construction works",
  "45230000": "Construction work for pipelines, communication and power lines, for highways, roads, airfields and railways; flatwork",
  "45240000": "Construction work for water projects",
  "45260000": "Roof works and other special trade construction works",
  "45300000": "Building installation work",
  "45310000": "Electrical installation work",
  "45330000": "Plumbing and sanitary works",
  "45400000": "Building completion work",
  "45420000": "Joinery and carpentry installation work",
  "45500000": "Hire of construction and civil engineering machinery and equipment with operator",
  "48000000": "Software package and information systems",
  "50000000": "Repair and maintenance services",
  "50100000": "Repair, maintenance and associated services of vehicles and related equipment",
  "50240000": "Repair, maintenance and associated services related to marine and other equipment",
  "50300000": "Repair, maintenance and associated services related to personal computers, office equipment, telecommunications and audio-visual equipment",
  "50800000": "Miscellaneous repair and maintenance services",
  "51000000": "Installation services (except software)",
  "55100000": "Hotel services",
  "55200000": "Camping sites and other non-hotel accommodation",
  "55300000": "Restaurant and food-serving services",
  "55400000": "Beverage-serving services",
  "55500000": "Canteen and catering services",
  "55520000": "Catering services",
  "60100000": "Road transport services",
  "60112000": "Public road transport services",
  "60120000": "Taxi services",
  "60130000": "Special-purpose road passenger-transport services",
  "60160000": "Mail transport by road",
  "60170000": "Hire of passenger transport vehicles with driver",
  "60180000": "Hire of goods-transport vehicles with driver",
  "60200000": "Railway transport services",
  "60400000": "Air transport services",
  "60600000": "Water transport services",
  "63100000": "Cargo handling and storage services",
  "63510000": "Travel agency and similar services",
  "63520000": "Transport agency services",
  "63700000": "Support services for land, water and air transport",
  "63710000": "Support services for land transport",
  "63720000": "Support services for water transport",
  "63730000": "Support services for air transport",
  "64110000": "Postal services",
  "64120000": "Courier services",
  "64200000": "Telecommunications services",
  "65100000": "Water distribution and related services",
  "65200000": "Gas distribution and related services",
  "65300000": "Electricity distribution and related services",
  "66100000": "Banking and investment services",
  "66170000": "Financial consultancy, financial transaction processing and clearing-house services",
  "66500000": "Insurance and pension services",
  "70000000": "Real estate services",
  "70100000": "Real estate services with own property",
  "70200000": "Renting or leasing services of own property",
  "70300000": "Real estate agency services provided on a fee or contract basis",
  "70330000": "Property management services of real estate on a fee or contract basis",
  "71000000": "Architectural, construction, engineering and inspection services",
  "71200000": "Architectural and related services",
  "71300000": "Engineering services",
  "71600000": "Technical testing, analysis and consultancy services",
  "72000000": "IT services: consulting, software development, Internet and support",
  "72200000": "Software programming and consultancy services",
  "72300000": "Data services",
  "72400000": "Internet services",
  "72500000": "Computer-related services",
  "72600000": "Computer support and consultancy services",
  "72700000": "Computer network services",
  "73000000": "Research and development services and related consultancy services",
  "73100000": "Research and experimental development services",
  "73200000": "Research and development consultancy services",
  "75000000": "Administration, defence and social security services",
  "75100000": "Administration services",
  "75200000": "Provision of services to the community",
  "75300000": "Compulsory social security services",
  "76000000": "Services related to the oil and gas industry",
  "77100000": "Agricultural services",
  "77200000": "Forestry services",
  "77300000": "Horticultural services",
  "77310000": "Planting and maintenance services of green areas",
  "79000000": "Business services: law, marketing, consulting, recruitment, printing and security",
  "79100000": "Legal services",
  "79200000": "Accounting, auditing and fiscal services",
  "79300000": "Market and economic research; polling and statistics",
  "79310000": "Market research services",
  "79340000": "Advertising and marketing services",
  "79400000": "Business and management consultancy and related services",
  "79410000": "Business and management consultancy services",
  "79416000": "Public relations services",
  "79500000": "Office-support services",
  "79510000": "Telephone-answering services",
  "79530000": "Translation services",
  "79540000": "Interpretation services",
  "79600000": "Recruitment services",
  "79610000": "Placement services of personnel",
  "79620000": "Supply services of personnel including temporary staff",
  "79700000": "Investigation and security services",
  "79710000": "Security services",
  "79800000": "Printing and related services",
  "79900000": "Miscellaneous business and business-related services",
  "79930000": "Specialty design services",
  "79940000": "Collection agency services",
  "79950000": "Exhibition, fair and congress organisation services",
  "79960000": "Photographic and ancillary services",
  "79970000": "Publishing services",
  "79993000": "Building and facilities management services",
  "80000000": "Education and training services",
  "80100000": "Primary education services",
  "80200000": "Secondary education services",
  "80300000": "Higher education services",
  "80400000": "Adult and other education services",
  "80500000": "Training services",
  "85100000": "Health services",
  "85110000": "Hospital and related services",
  "85120000": "Medical practice and related services",
  "85130000": "Dental practice and related services",
  "85140000": "Miscellaneous health services",
  "85200000": "Veterinary services",
  "85300000": "Social work and related services",
  "85311000": "Social work services with accommodation",
  "85312000": "Social work services without accommodation",
  "85320000": "Social services",
  "90400000": "Sewage services",
  "90500000": "Refuse and waste related services",
  "90650000": "Asbestos removal services",
  "90700000": "Environmental services",
  "90900000": "Cleaning and sanitation services",
  "90910000": "Cleaning services",
  "92100000": "Motion picture and video services",
  "92200000": "Radio and television services",
  "92300000": "Entertainment services",
  "92310000": "Artistic and literary creation and interpretation services",
  "92330000": "Recreational-area services",
  "92350000": "Gambling and betting services",
  "92400000": "News-agency services",
  "92500000": "Library, archives, museums and other cultural services",
  "92600000": "Sporting services",
  "98100000": "Membership organisation services",
  "98300000": "Miscellaneous services",
  "98310000": "Washing and dry-cleaning services",
  "98320000": "Hairdressing and beauty treatment services",
  "98330000": "Physical well-being services",
  "98341000": "Accommodation services",
  "98370000": "Funeral and related services",
  "98500000": "Private households with employed persons",
};

/** One mapping: the CPV codes (full 8-digit codes of CPV above) a SIC prefix points to, and why. */
type Entry = [cpv: string[], reason: string];

/**
 * SIC prefix → CPV codes, with the reason. Sections in SIC order; a division first, then the groups or classes
 * that refine it.
 */
const MAP: Record<string, Entry> = {
  // A: agriculture, forestry and fishing
  "01": [["03100000", "77100000"], "farming sells agricultural products and agricultural services"],
  "013": [["03121000", "77300000"], "plant propagation: horticultural products and services"],
  "016": [["77100000"], "support activities to agriculture are agricultural services"],
  "02": [["03400000", "77200000"], "forestry and logging sells forestry products and forestry services"],
  "03": [["03310000"], "fishing and aquaculture sells fish and aquatic products"],
  // B: mining and quarrying
  "05": [["09110000"], "coal and lignite are solid fuels"],
  "06": [["09100000", "76000000"], "crude oil and natural gas: fuels, and services to the oil and gas industry"],
  "07": [["14000000"], "mining of metal ores: mining products"],
  "08": [["14000000", "44100000"], "quarrying: mining products and construction materials"],
  "09": [["76000000", "14000000"], "mining support services: services to the oil and gas industry and to mining"],
  // C: manufacturing
  "10": [["15000000"], "food manufacture: food products"],
  "11": [["15900000"], "beverages"],
  "12": [["15900000"], "tobacco products"],
  "13": [["19200000", "39500000"], "textiles: textile fabrics and textile articles"],
  "14": [["18000000"], "wearing apparel: clothing"],
  "15": [["19100000", "18800000"], "leather goods and footwear"],
  "16": [["03410000", "44220000"], "wood products: wood and builders' joinery"],
  "1623": [["44220000", "45420000"], "builders' carpentry and joinery: joinery products and their installation"],
  "17": [["30190000"], "paper products: office paper and supplies (broad)"],
  "18": [["79800000", "22000000"], "printing: printing services and printed matter"],
  "19": [["09100000"], "coke and refined petroleum products are fuels"],
  "20": [["24000000"], "chemicals"],
  "21": [["33600000"], "pharmaceutical products"],
  "22": [["19500000"], "rubber and plastic products"],
  "23": [["44100000"], "glass, cement, concrete and other mineral products are construction materials (broad)"],
  "24": [["14700000"], "basic metals"],
  "25": [["44200000", "44500000"], "fabricated metal products: structural products, tools and fittings (broad)"],
  "26": [["30200000", "32000000", "38000000"], "computers, electronics and optical products"],
  "27": [["31000000"], "electrical equipment"],
  "28": [["42000000", "43000000", "16000000"], "machinery: industrial, construction and agricultural machinery"],
  "29": [["34100000", "34300000"], "motor vehicles and their parts"],
  "30": [["34000000", "35000000"], "other transport equipment (ships, rail, aircraft, military vehicles)"],
  "31": [["39100000"], "furniture"],
  "32": [["37000000", "39000000"], "other manufacturing: sports goods, toys, instruments and other goods (broad)"],
  "325": [["33100000"], "medical and dental instruments are medical equipment"],
  "33": [["50000000", "51000000"], "repair and installation of machinery and equipment"],
  "3315": [["50240000"], "repair of ships and boats: marine repair and maintenance"],
  // D: electricity, gas, steam and air conditioning supply
  "35": [["09300000", "65300000", "65200000"], "energy supply: electricity and heat, and electricity and gas distribution"],
  // E: water supply, sewerage, waste management and remediation
  "36": [["41000000", "65100000"], "water collection, treatment and supply"],
  "37": [["90400000"], "sewerage"],
  "38": [["90500000"], "waste collection, treatment and disposal"],
  "39": [["90700000", "90650000"], "remediation: environmental services, asbestos removal"],
  // F: construction
  "41": [["45210000"], "construction of buildings"],
  "411": [["70000000", "45210000"], "development of building projects: real estate and building construction"],
  "42": [["45220000", "45230000"], "civil engineering works"],
  "429": [["45220000", "45240000"], "other civil engineering: engineering works and water projects"],
  "43": [["45300000", "45400000", "45100000"], "specialised construction: installation, completion and site preparation works"],
  "431": [["45100000"], "demolition and site preparation"],
  "432": [["45300000", "45310000", "45330000"], "electrical, plumbing and other installation: building installation work"],
  "433": [["45400000", "45420000"], "building completion and finishing work"],
  "439": [["45260000"], "roofing and other specialised construction"],
  // G: wholesale and retail trade; repair of motor vehicles
  "45": [["34100000", "50100000", "34300000"], "motor trade: vehicles, their parts, and vehicle repair"],
  "452": [["50100000"], "maintenance and repair of motor vehicles"],
  "46": [["39000000", "30190000"], "wholesale of goods (broad: the goods decide the CPV)"],
  "462": [["03100000"], "wholesale of agricultural raw materials"],
  "463": [["15000000"], "wholesale of food, beverages and tobacco"],
  "464": [["39000000", "18000000"], "wholesale of household goods"],
  "4646": [["33600000", "33100000"], "wholesale of pharmaceutical and medical goods"],
  "465": [["30200000", "32500000"], "wholesale of information and communication equipment"],
  "466": [["42000000", "30190000", "39100000"], "wholesale of machinery, office equipment and furniture"],
  "4671": [["09100000"], "wholesale of fuels"],
  "4672": [["14700000"], "wholesale of metals"],
  "4673": [["44100000", "03410000"], "wholesale of wood and construction materials"],
  "4674": [["44500000"], "wholesale of hardware and plumbing supplies"],
  "4675": [["24000000"], "wholesale of chemical products"],
  "47": [["39000000", "30190000"], "retail of goods (broad: the goods decide the CPV)"],
  "471": [["15000000"], "non-specialised stores (mainly food)"],
  "472": [["15000000"], "retail of food, beverages and tobacco"],
  "473": [["09100000"], "retail of automotive fuel"],
  "474": [["30200000", "32500000"], "retail of information and communication equipment"],
  "4752": [["44500000", "44100000"], "retail of hardware and building materials"],
  "4761": [["22100000"], "retail of books"],
  "4762": [["22000000"], "retail of newspapers and stationery"],
  "4764": [["37000000"], "retail of sports equipment"],
  "4765": [["37000000"], "retail of games and toys"],
  "4771": [["18000000"], "retail of clothing"],
  "4772": [["18800000"], "retail of footwear and leather goods"],
  "4773": [["33600000"], "dispensing chemists: pharmaceutical products"],
  "4774": [["33100000"], "retail of medical and orthopaedic goods"],
  "4776": [["03121000"], "retail of flowers and plants: horticultural products"],
  // H: transportation and storage
  "49": [["60100000", "60200000"], "land transport: road and rail"],
  "491": [["60200000"], "passenger rail transport"],
  "492": [["60200000"], "freight rail transport"],
  "4931": [["60112000"], "urban and suburban passenger land transport: public road transport"],
  "4932": [["60120000"], "taxi operation"],
  "4939": [["60130000", "60170000"], "other passenger land transport: coach hire, school and special-purpose transport"],
  "494": [["60100000", "60180000"], "freight transport by road and removals"],
  "50": [["60600000"], "water transport"],
  "51": [["60400000"], "air transport"],
  "52": [["63100000", "63700000"], "warehousing and support activities for transportation"],
  "521": [["63100000"], "warehousing and storage"],
  "5221": [["63710000"], "service activities incidental to land transportation"],
  "5222": [["63720000"], "service activities incidental to water transportation"],
  "5223": [["63730000"], "service activities incidental to air transportation"],
  "5224": [["63100000"], "cargo handling"],
  "5229": [["63520000"], "other transportation support (freight forwarding): transport agency services"],
  "53": [["64110000", "64120000", "60160000"], "postal and courier activities"],
  "532": [["64120000", "60160000"], "other postal and courier activities"],
  // I: accommodation and food service
  "55": [["55100000", "55200000", "98341000"], "accommodation"],
  "56": [["55300000", "55500000", "55520000"], "food and beverage service: restaurants, canteens and catering"],
  "562": [["55520000", "55500000"], "event catering and other food services: catering and canteen services"],
  "563": [["55400000"], "beverage serving activities"],
  // J: information and communication
  "58": [["79970000", "22000000"], "publishing: publishing services and printed matter"],
  "582": [["48000000", "72200000"], "software publishing: software packages and software services"],
  "59": [["92100000"], "motion picture, video and television programme production, sound recording"],
  "60": [["92200000"], "programming and broadcasting: radio and television services"],
  "61": [["64200000", "32500000"], "telecommunications: services and equipment"],
  "62": [["72000000", "48000000"], "computer programming and consultancy: IT services and software packages"],
  "6201": [["72200000", "48000000", "72000000"], "computer programming: software programming services and software packages"],
  "6202": [["72200000", "72600000", "72000000"], "IT consultancy: software and computer support and consultancy"],
  "6203": [["72500000", "72700000", "72000000"], "computer facilities management: computer-related and network services"],
  "6209": [["72000000", "72500000"], "other IT service activities"],
  "63": [["72300000", "72400000"], "information services: data and Internet services"],
  "639": [["92400000", "72300000"], "news agencies and other information services"],
  // K: financial and insurance
  "64": [["66100000", "66170000"], "financial services: banking, investment and financial consultancy"],
  "65": [["66500000"], "insurance and pension funding"],
  "66": [["66170000", "66500000"], "activities auxiliary to financial services and insurance"],
  // L: real estate
  "68": [["70000000"], "real estate activities"],
  "681": [["70100000"], "buying and selling of own real estate"],
  "682": [["70200000"], "renting and operating of own or leased real estate"],
  "683": [["70300000", "70330000"], "real estate on a fee or contract basis: agency and property management"],
  // M: professional, scientific and technical
  "69": [["79100000", "79200000"], "legal and accounting activities"],
  "691": [["79100000"], "legal activities"],
  "692": [["79200000"], "accounting, bookkeeping, auditing and tax consultancy"],
  "70": [["79400000"], "head offices and management consultancy"],
  "7021": [["79416000"], "public relations and communication"],
  "7022": [["79410000", "66170000"], "business and other management consultancy"],
  "71": [["71000000"], "architectural and engineering activities, technical testing"],
  "7111": [["71200000"], "architectural activities"],
  "7112": [["71300000", "71000000"], "engineering activities and technical consultancy"],
  "712": [["71600000"], "technical testing and analysis"],
  "72": [["73000000"], "scientific research and development"],
  "721": [["73100000"], "research and experimental development on natural sciences and engineering"],
  "722": [["73200000", "79300000"], "research and development on social sciences and humanities"],
  "73": [["79340000", "79300000"], "advertising and market research"],
  "731": [["79340000"], "advertising"],
  "732": [["79310000", "79300000"], "market research and public opinion polling"],
  "74": [["79900000", "79400000"], "other professional, scientific and technical activities (broad)"],
  "741": [["79930000"], "specialised design activities"],
  "742": [["79960000"], "photographic activities"],
  "743": [["79530000", "79540000"], "translation and interpretation"],
  "75": [["85200000"], "veterinary activities"],
  // N: administrative and support service activities
  "77": [["34100000", "45500000"], "rental and leasing: vehicles and machinery (broad)"],
  "78": [["79600000"], "employment activities: recruitment services"],
  "781": [["79610000", "79600000"], "employment placement agencies"],
  "782": [["79620000"], "temporary employment agencies: supply of personnel"],
  "79": [["63510000"], "travel agency and tour operator activities"],
  "80": [["79710000", "79700000"], "security and investigation activities"],
  "81": [["90900000", "77310000"], "services to buildings and landscape: cleaning and grounds maintenance"],
  "811": [["79993000"], "combined facilities support: building and facilities management"],
  "812": [["90910000", "90900000"], "cleaning activities"],
  "813": [["77310000", "77300000"], "landscape service activities: planting and maintenance of green areas"],
  "82": [["79500000", "79900000"], "office administrative and business support activities"],
  "822": [["79510000"], "call centres: telephone-answering services"],
  "823": [["79950000"], "organisation of conventions and trade shows"],
  "8291": [["79940000"], "collection agencies"],
  // O: public administration and defence
  "84": [["75000000"], "public administration, defence and social security"],
  "841": [["75100000"], "administration of the state"],
  "842": [["75200000"], "services to the community as a whole"],
  "843": [["75300000"], "compulsory social security"],
  // P: education
  "85": [["80000000"], "education"],
  "851": [["80100000"], "pre-primary education"],
  "852": [["80100000"], "primary education"],
  "853": [["80200000"], "secondary education"],
  "854": [["80300000", "80400000"], "higher and post-secondary education"],
  "855": [["80400000", "80500000"], "other education: adult education and training"],
  "856": [["80000000"], "educational support activities"],
  // Q: human health and social work
  "86": [["85100000"], "human health activities"],
  "861": [["85110000"], "hospital activities"],
  "862": [["85120000", "85130000"], "medical and dental practice"],
  "869": [["85140000"], "other human health activities"],
  "87": [["85311000", "85300000"], "residential care: social work with accommodation"],
  "88": [["85312000", "85300000"], "social work without accommodation"],
  "889": [["85312000", "85320000"], "other social work without accommodation"],
  // R: arts, entertainment and recreation
  "90": [["92300000", "92310000"], "creative, arts and entertainment activities"],
  "91": [["92500000"], "libraries, archives, museums and other cultural activities"],
  "92": [["92350000"], "gambling and betting"],
  "93": [["92600000", "92330000"], "sports, amusement and recreation"],
  "932": [["92330000"], "amusement and recreation"],
  // S: other service activities
  "94": [["98100000"], "membership organisations"],
  "95": [["50300000", "50800000"], "repair of computers and personal and household goods"],
  "96": [["98300000"], "other personal service activities"],
  "9601": [["98310000"], "washing and dry-cleaning"],
  "9602": [["98320000"], "hairdressing and beauty treatment"],
  "9603": [["98370000"], "funeral and related activities"],
  "9604": [["98330000"], "physical well-being activities"],
  // T: households as employers
  "97": [["98500000"], "households as employers of domestic personnel"],
  "98": [["98500000"], "households producing goods and services for own use (broad)"],
  "98000": [["70330000"], "residents property management: property management services"],
  // U: extraterritorial organisations
  "99": [["75000000"], "extraterritorial organisations (broad: administration services)"],
};

/** Companies House codes that say the company does not trade: nothing to match. */
const NOT_TRADING = new Set(["74990", "99999"]);

/** The prefix of a CPV code: its digits less trailing zeros, never shorter than the division (2). */
export function cpvPrefix(code: string): string {
  const digits = code.replace(/\D/g, "").slice(0, 8);
  const trimmed = digits.replace(/0+$/, "");
  return trimmed.length >= 2 ? trimmed : digits.slice(0, 2);
}

/** A CPV code's name, where this mapping knows it. */
export const cpvDescription = (code: string): string | null => CPV[code.replace(/\D/g, "").slice(0, 8).padEnd(8, "0")] ?? null;

/** The mapping entry a SIC code falls under: its longest key; null for non-trading codes and codes no key covers. */
function entryOf(sic: string): { key: string; entry: Entry } | null {
  const code = sic.replace(/\D/g, "");
  if (!code || NOT_TRADING.has(code)) return null;
  for (let n = Math.min(5, code.length); n >= 2; n--) {
    const key = code.slice(0, n);
    if (MAP[key]) return { key, entry: MAP[key] };
  }
  return null;
}

/** CPV prefixes for one SIC code, most specific first as the mapping lists them. Empty for 74990/99999 and unknown codes. */
export function cpvForSic(sic: string): CpvForSic[] {
  const hit = entryOf(sic);
  if (!hit) return [];
  const level = hit.key.length === 2 ? "division" : hit.key.length === 3 ? "group" : hit.key.length === 4 ? "class" : "subclass";
  return hit.entry[0].map((code) => ({
    prefix: cpvPrefix(code),
    code,
    description: CPV[code],
    fromSic: sic,
    sicKey: hit.key,
    reason: `SIC ${level} ${hit.key}: ${hit.entry[1]}`,
  }));
}

/**
 * CPV prefixes for a company's SIC codes, each prefix once (from the first SIC code that gives it), in the
 * order of the codes. A prefix covered by a shorter one already listed is kept (it scores higher when it matches).
 */
export function cpvForSicCodes(sicCodes: string[]): CpvForSic[] {
  const seen = new Set<string>();
  const out: CpvForSic[] = [];
  for (const sic of sicCodes)
    for (const t of cpvForSic(sic))
      if (!seen.has(t.prefix)) {
        seen.add(t.prefix);
        out.push(t);
      }
  return out;
}

/** Every SIC key of the mapping (for tests and docs). */
export const SIC_KEYS: readonly string[] = Object.keys(MAP);
/** Every CPV code the mapping points to, with its name. */
export const CPV_NAMES: Readonly<Record<string, string>> = CPV;
