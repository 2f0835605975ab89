package engine

// handler simulates one traced function on the engine.
type handler func(*Engine) error

// entry is the handler of a function and whether RegularTime follows it.
type entry struct {
	h  handler
	rt bool
}

func withRT(h handler) entry { return entry{h, true} }

func regularOnly(e *Engine) error { e.regular(); return nil }

func nothing(*Engine) error { return nil }

// funcKind is a traced run-time function as the engine tells functions
// apart: one kind per behaviour, so that handlers switch on kinds rather
// than on names.
type funcKind uint8

const (
	fnUnknown funcKind = iota
	// Intervals.
	fnEnterUser // binter_
	fnEnterSeq  // bsloop_
	fnEnterPar  // bploop_
	fnLeave     // einter_, enloop_
	// Distributed arrays.
	fnCrtda
	fnAlign
	fnDelda
	fnRealn
	fnArrcpy
	fnAarrcp
	fnWaitcp
	// Shadow exchanges.
	fnCrtshg
	fnInssh
	fnInsshd
	fnIncsh
	fnIncshd
	fnDelshg
	fnStrtsh
	fnWaitsh
	fnSendsh
	fnImlast
	fnExfrst
	fnAcross
	// Reductions.
	fnCrtrg
	fnCrtred
	fnInsred
	fnDelred
	fnDelrg
	fnStrtrd
	fnWaitrd
	// Parallel loops.
	fnCrtpl
	fnMappl
	fnDopl
	fnEndpl
	// Processor systems and templates.
	fnCrtps
	fnPsview
	fnGetps
	fnGetam
	fnGetamr
	fnMapam
	fnRunam
	fnStopam
	fnCrtamv
	fnBlkdiv
	fnDistr
	fnSetelw
	fnRedis
	// Remote access.
	fnCrtrbl
	fnCrtrbp
	fnLoadrb
	fnWaitrb
	// Input/output.
	fnBiof
	fnEiof
	fnSrmem
	fnIOCall // every other I/O function (ioFuncs)
	// Functions that only run RegularTime (regularFuncs and a few more).
	fnRegularOnly
	numFuncKinds
)

// handlers is the dispatch table (docs/model.md §6.4, §6.5): the handler
// of every kind and whether RegularTime follows it. fnUnknown has none.
var handlers = [numFuncKinds]entry{
	// Intervals: RegularTime first, then the switch.
	fnEnterUser: {enterInterval, false},
	fnEnterSeq:  {enterInterval, false},
	fnEnterPar:  {enterInterval, false},
	fnLeave:     {leaveInterval, false},
	// DArray: handler only, call and ret times are never charged.
	fnCrtda:  {crtda, false},
	fnAlign:  {align, false},
	fnDelda:  {delda, false},
	fnRealn:  {realn, false},
	fnArrcpy: {arrcpy, false},
	fnAarrcp: {aarrcp, false},
	fnWaitcp: {waitcp, false},
	// Shadow.
	fnCrtshg: withRT(crtshg),
	fnInssh:  withRT(inssh),
	fnInsshd: withRT(inssh),
	fnIncsh:  withRT(inssh),
	fnIncshd: withRT(inssh),
	fnDelshg: withRT(delshg),
	fnStrtsh: withRT(strtsh),
	fnWaitsh: withRT(waitsh),
	fnSendsh: withRT(sendsh),
	fnImlast: withRT(imlast),
	fnExfrst: withRT(exfrst),
	fnAcross: withRT(across),
	// Reduction.
	fnCrtrg:  withRT(crtrg),
	fnCrtred: withRT(crtred),
	fnInsred: withRT(insred),
	fnDelred: withRT(delred),
	fnDelrg:  withRT(delrg),
	fnStrtrd: withRT(strtrd),
	fnWaitrd: withRT(waitrd),
	// Parallel loops.
	fnCrtpl: withRT(crtpl),
	fnMappl: withRT(mappl),
	fnDopl:  {dopl, false},
	fnEndpl: withRT(endpl),
	// Processor systems and templates.
	fnCrtps:  withRT(crtps),
	fnPsview: withRT(psview),
	fnGetps:  withRT(getps),
	fnGetam:  withRT(getam),
	fnGetamr: withRT(getamr),
	fnMapam:  withRT(mapam),
	fnRunam:  withRT(runam),
	fnStopam: withRT(stopam),
	fnCrtamv: withRT(crtamv),
	fnBlkdiv: withRT(blkdiv),
	fnDistr:  withRT(distr),
	fnSetelw: withRT(setelw),
	fnRedis:  {nothing, false},
	// Remote access.
	fnCrtrbl: withRT(crtrbl),
	fnCrtrbp: withRT(crtrbp),
	fnLoadrb: withRT(loadrb),
	fnWaitrb: withRT(waitrb),
	// Input/output.
	fnBiof:        {biof, false},
	fnEiof:        {eiof, false},
	fnSrmem:       withRT(srmem),
	fnIOCall:      {ioCall, false},
	fnRegularOnly: {regularOnly, false},
}

// funcKinds names the functions with a kind of their own or shared by a
// few; ioFuncs and regularFuncs list the rest.
var funcKinds = map[string]funcKind{
	"binter_": fnEnterUser, "bsloop_": fnEnterSeq, "bploop_": fnEnterPar,
	"einter_": fnLeave, "enloop_": fnLeave,
	"crtda_": fnCrtda, "align_": fnAlign, "delda_": fnDelda, "realn_": fnRealn,
	"arrcpy_": fnArrcpy, "aarrcp_": fnAarrcp, "waitcp_": fnWaitcp,
	"crtshg_": fnCrtshg, "inssh_": fnInssh, "insshd_": fnInsshd, "incsh_": fnIncsh,
	"incshd_": fnIncshd, "delshg_": fnDelshg, "recvsh_": fnRegularOnly, "strtsh_": fnStrtsh,
	"waitsh_": fnWaitsh, "sendsh_": fnSendsh, "imlast_": fnImlast, "exfrst_": fnExfrst,
	"across_": fnAcross,
	"crtrg_":  fnCrtrg, "crtred_": fnCrtred, "insred_": fnInsred, "delred_": fnDelred,
	"delrg_": fnDelrg, "strtrd_": fnStrtrd, "waitrd_": fnWaitrd,
	"crtpl_": fnCrtpl, "mappl_": fnMappl, "dopl_": fnDopl, "endpl_": fnEndpl,
	"crtps_": fnCrtps, "psview_": fnPsview, "getps_": fnGetps, "getam_": fnGetam,
	"getamr_": fnGetamr, "mapam_": fnMapam, "runam_": fnRunam, "stopam_": fnStopam,
	"crtamv_": fnCrtamv, "blkdiv_": fnBlkdiv, "distr_": fnDistr, "setelw_": fnSetelw,
	"delps_": fnRegularOnly, "delamv_": fnRegularOnly, "redis_": fnRedis,
	"crtrbl_": fnCrtrbl, "crtrbp_": fnCrtrbp, "loadrb_": fnLoadrb, "waitrb_": fnWaitrb,
	"crtbg_": fnRegularOnly, "insrb_": fnRegularOnly, "loadbg_": fnRegularOnly, "waitbg_": fnRegularOnly,
	"biof_": fnBiof, "eiof_": fnEiof, "srmem_": fnSrmem,
}

// kindOf returns the kind of a function name, fnUnknown for a function the
// model does not know.
func kindOf(name string) funcKind {
	if k, ok := funcKinds[name]; ok {
		return k
	}
	if ioFuncs[name] {
		return fnIOCall
	}
	if regularFuncs[name] {
		return fnRegularOnly
	}
	return fnUnknown
}

var ioFuncs = set("dvm_fopen", "dvm_fclose", "dvm_void_vfprintf", "dvm_vfprintf", "dvm_fwrite",
	"dvm_fread", "dvm_vscanf", "dvm_fscanf", "dvm_scanf", "dvm_vfscanf", "dvm_clearerr", "dvm_feof",
	"dvm_ferror", "dvm_fflush", "dvm_fgetc", "dvm_fgetpos", "dvm_fgets", "dvm_fputc", "dvm_fputs",
	"dvm_freopen", "dvm_fseek", "dvm_fsetpos", "dvm_ftell", "dvm_getc", "dvm_getchar", "dvm_gets",
	"dvm_putc", "dvm_putchar", "dvm_puts", "dvm_rewind", "dvm_setbuf", "dvm_setvbuf", "dvm_tmpfile",
	"dvm_ungetc", "dvm_void_fprintf", "dvm_fprintf", "dvm_void_printf", "dvm_printf",
	"dvm_void_vprintf", "dvm_vprintf", "dvm_remove", "dvm_rename", "dvm_tmpnam", "dvm_close",
	"dvm_fstat", "dvm_lseek", "dvm_open", "dvm_read", "dvm_write", "dvm_access", "dvm_stat")

var regularFuncs = set("tstio_", "tstda_", "locsiz_", "getlen_", "delobj_", "tron_", "troff_",
	"clocel_", "locind_", "rlocel_", "wlocel_", "tstelm_", "getrnk_", "getsiz_", "delmvm_", "mdistr_",
	"mredis_", "amvmap_", "setpsw_", "malign_", "mrealn_", "delarm_", "arrmap_", "rwelm_", "copelm_",
	"elmcpy_", "setind_", "dvm_dfread", "dvm_dfwrite", "getind_", "addhdr_", "delhdr_", "dprstv_",
	"dstv_", "dldv_", "dbegpl_", "dbegsl_", "dendl_", "diter_", "drmbuf_", "dskpbl_", "begbl_",
	"endbl_", "getamv_", "dvm_Init", "saverv_", "mps_Bcast", "mps_Barrier")

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}
