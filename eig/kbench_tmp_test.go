package eig

import (
	"fmt"
	"runtime"
	"syscall"
	"testing"
	"unsafe"
)

func threadCPU() float64 {
	var ts syscall.Timespec
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, 3, uintptr(unsafe.Pointer(&ts)), 0)
	return float64(ts.Nano()) / 1e9
}

func BenchmarkKernelTmp(b *testing.B) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for _, sz := range [][3]int{{3, 4, 256}, {30, 8, 256}, {30, 8, 4000}, {300, 8, 4000}, {2000, 8, 4000}, {2000, 16, 4000}} {
		rows, nx, n := sz[0], sz[1], sz[2]
		a := make([]float64, rows*n)
		x := make([]float64, nx*n)
		c := make([]float64, rows*nx)
		for i := range a {
			a[i] = 1
		}
		for i := range x {
			x[i] = 1
		}
		b.Run(fmt.Sprintf("rows=%d/nx=%d/n=%d", rows, nx, n), func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			t0 := threadCPU()
			for b.Loop() {
				dotsNT(true, c, nx, 1, a, n, rows, x, n, nx, n)
			}
			cpu := threadCPU() - t0
			b.ReportMetric(2*float64(rows*nx*n)*float64(b.N)/cpu/1e9, "cpuGF/s")
			b.ReportMetric(8*float64(rows*n)*float64(b.N)/cpu/1e9, "cpuGB/s")
		})
	}
}

func BenchmarkStreamTmp(b *testing.B) {
	rows, n := 2000, 4000
	a := make([]float64, rows*n)
	for i := range a {
		a[i] = 1
	}
	x := make([]float64, n)
	y := make([]float64, rows)
	b.Run("sum", func(b *testing.B) {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		t0 := threadCPU()
		for b.Loop() {
			var a0, a1, a2, a3 float64
			for i := 0; i+4 <= len(a); i += 4 {
				a0 += a[i]
				a1 += a[i+1]
				a2 += a[i+2]
				a3 += a[i+3]
			}
			sinkFloat = a0 + a1 + a2 + a3
		}
		cpu := threadCPU() - t0
		b.ReportMetric(8*float64(rows*n)*float64(b.N)/cpu/1e9, "cpuGB/s")
	})
	for _, nx := range []int{1, 4} {
		b.Run(fmt.Sprintf("gemv/nx=%d", nx), func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			t0 := threadCPU()
			for b.Loop() {
				for k := 0; k < nx; k++ {
					impl := blas64Impl()
					impl.Dgemv(blasNoTrans, rows, n, 1, a, n, x, 1, 0, y, 1)
				}
			}
			cpu := threadCPU() - t0
			b.ReportMetric(8*float64(rows*n)*float64(b.N)/cpu/1e9, "cpuGB/s")
		})
	}
	for _, nx := range []int{4, 8, 12, 16} {
		xx := make([]float64, nx*n)
		c := make([]float64, rows*nx)
		b.Run(fmt.Sprintf("asm/nx=%d", nx), func(b *testing.B) {
			
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			t0 := threadCPU()
			for b.Loop() {
				dotsNT(true, c, nx, 1, a, n, rows, xx, n, nx, n)
			}
			cpu := threadCPU() - t0
			b.ReportMetric(8*float64(rows*n)*float64(b.N)/cpu/1e9, "cpuGB/s")
		})
	}
}
