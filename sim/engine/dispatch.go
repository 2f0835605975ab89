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

// handlerOf returns the handler of a function name (docs/model.md §6.4, §6.5);
// its h is nil for an unknown name.
func handlerOf(name string) entry {
	switch name {
	// Intervals: RegularTime first, then the switch.
	case "binter_", "bsloop_", "bploop_":
		return entry{enterInterval, false}
	case "einter_", "enloop_":
		return entry{leaveInterval, false}
	// DArray: handler only, call and ret times are never charged.
	case "crtda_":
		return entry{crtda, false}
	case "align_":
		return entry{align, false}
	case "delda_":
		return entry{delda, false}
	case "realn_":
		return entry{realn, false}
	case "arrcpy_":
		return entry{arrcpy, false}
	case "aarrcp_":
		return entry{aarrcp, false}
	case "waitcp_":
		return entry{waitcp, false}
	// Shadow.
	case "crtshg_":
		return withRT(crtshg)
	case "inssh_", "insshd_", "incsh_", "incshd_":
		return withRT(inssh)
	case "delshg_":
		return withRT(delshg)
	case "recvsh_":
		return entry{regularOnly, false}
	case "strtsh_":
		return withRT(strtsh)
	case "waitsh_":
		return withRT(waitsh)
	case "sendsh_":
		return withRT(sendsh)
	case "imlast_":
		return withRT(imlast)
	case "exfrst_":
		return withRT(exfrst)
	case "across_":
		return withRT(across)
	// Reduction.
	case "crtrg_":
		return withRT(crtrg)
	case "crtred_":
		return withRT(crtred)
	case "insred_":
		return withRT(insred)
	case "delred_":
		return withRT(delred)
	case "delrg_":
		return withRT(delrg)
	case "strtrd_":
		return withRT(strtrd)
	case "waitrd_":
		return withRT(waitrd)
	// Parallel loops.
	case "crtpl_":
		return withRT(crtpl)
	case "mappl_":
		return withRT(mappl)
	case "dopl_":
		return entry{dopl, false}
	case "endpl_":
		return withRT(endpl)
	// Processor systems and templates.
	case "crtps_":
		return withRT(crtps)
	case "psview_":
		return withRT(psview)
	case "getps_":
		return withRT(getps)
	case "getam_":
		return withRT(getam)
	case "getamr_":
		return withRT(getamr)
	case "mapam_":
		return withRT(mapam)
	case "runam_":
		return withRT(runam)
	case "stopam_":
		return withRT(stopam)
	case "crtamv_":
		return withRT(crtamv)
	case "blkdiv_":
		return withRT(blkdiv)
	case "distr_":
		return withRT(distr)
	case "setelw_":
		return withRT(setelw)
	case "delps_", "delamv_":
		return entry{regularOnly, false}
	case "redis_":
		return entry{nothing, false}
	// Remote access.
	case "crtrbl_":
		return withRT(crtrbl)
	case "crtrbp_":
		return withRT(crtrbp)
	case "loadrb_":
		return withRT(loadrb)
	case "waitrb_":
		return withRT(waitrb)
	case "crtbg_", "insrb_", "loadbg_", "waitbg_":
		return entry{regularOnly, false}
	// Input/output.
	case "biof_":
		return entry{biof, false}
	case "eiof_":
		return entry{eiof, false}
	case "srmem_":
		return withRT(srmem)
	}
	if ioFuncs[name] {
		return entry{ioCall, false}
	}
	if regularFuncs[name] {
		return entry{regularOnly, false}
	}
	return entry{}
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
