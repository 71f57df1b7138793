/**
 * natprod's reagent abbreviations for /depict/2D_enhanced (abbreviate=reagents|on): whole
 * disconnected components drawn as their usual short name. CDK 2.8 ships group abbreviations (its
 * Open Babel superatom list) but no reagents; this list is natprod's own, common solvents, bases,
 * acids and reducing agents, one "SMILES label" per entry in the form CDK's Abbreviations.add reads.
 */
final class CdkReagents {
  static final String[] LIST = {
    "C1CCOC1 THF", "CN(C)C=O DMF", "CS(=O)C DMSO", "ClCCl DCM", "ClC(Cl)Cl CHCl3", "CC#N MeCN",
    "CCOCC Et2O", "CCOC(C)=O EtOAc", "CC(=O)O AcOH", "CO MeOH", "CCO EtOH", "CC(C)O iPrOH",
    "C1COCCO1 dioxane", "COCCOC DME", "Cc1ccccc1 toluene", "c1ccncc1 pyridine",
    "CCN(CC)CC Et3N", "CCN(C(C)C)C(C)C DIPEA", "CN(C)c1ccncc1 DMAP", "C1CCC2=NCCCN2CC1 DBU",
    "OC(=O)C(F)(F)F TFA", "CC1=CC=C(C=C1)S(=O)(=O)O TsOH", "CS(=O)(=O)Cl MsCl",
    "[Na+].[OH-] NaOH", "[K+].[OH-] KOH", "[Li+].[OH-] LiOH", "[Na+].[H-] NaH",
    "[Li+].[Al-]([H])([H])([H])[H] LiAlH4", "[Na+].[B-]([H])([H])([H])[H] NaBH4",
    "[K+].[K+].[O-]C([O-])=O K2CO3", "[Na+].[Na+].[O-]C([O-])=O Na2CO3", "[Na+].OC([O-])=O NaHCO3",
    "[Cs+].[Cs+].[O-]C([O-])=O Cs2CO3", "Cl HCl", "Br HBr", "OS(=O)(=O)O H2SO4", "O=[N+]([O-])O HNO3",
    "[Na+].[Cl-] NaCl", "O H2O", "CC(C)(C)[O-].[K+] KOtBu", "ClC(=O)C(Cl)=O (COCl)2",
    "O=S(Cl)Cl SOCl2", "O=C(N1C=CN=C1)N1C=CN=C1 CDI", "C1CCC(CC1)N=C=NC1CCCCC1 DCC",
  };

  private CdkReagents() {}
}
